// What the stdio bridge answers from its own binary, without the server: the 2026-07-28
// server/discover probe and the 2025 initialize.  Both answers depend only on the binary
// (mcp/server_info), the same code the server answers them with, so a client's first
// exchange never waits for a server to start (MCP clients give up a probe after about a
// second and treat a slow one as an older server).  Sans-I/O.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "json/json.hpp"

namespace opentabs::bridge {

// The stdout line answering a 2026-07-28 server/discover request (its params._meta checked
// as the server checks it: a refusal is the server's JSON-RPC error); nullopt for any other
// line, which then goes to the server.
std::optional<std::string> discover_answer(std::string_view line);

// The stdout line answering an initialize request (its params checked as the server checks
// them): the negotiated version, capabilities, identity and instructions, or the -32602
// error the server would give.  `accepted` tells which, so an initialize that failed here
// is not relayed.
struct initialize_answer {
  std::string line;
  bool accepted = false;
};
initialize_answer answer_initialize(const json::object& request);

}  // namespace opentabs::bridge
