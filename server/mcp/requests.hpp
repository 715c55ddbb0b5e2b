// The params of each MCP method the server understands, parsed and validated sans-I/O.
// Errors are -32602 naming the offending field ("params.name must be a string").
#pragma once

#include <optional>
#include <string>

#include "json/json.hpp"
#include "jsonrpc/jsonrpc.hpp"
#include "mcp/log_level.hpp"

namespace opentabs::mcp {

// MCP speaks JSON-RPC in the vocabulary of the jsonrpc module.
using jsonrpc::parsed;
using jsonrpc::rpc_error;
namespace rpc_code = jsonrpc::rpc_code;

struct initialize_request {
  std::string protocol_version;
  std::string client_name;
  std::string client_version;
  bool can_elicit_form = false;  // capabilities declare form elicitation
  bool can_sample = false;       // capabilities declare sampling
};
parsed<initialize_request> parse_initialize(const json::object& params);

struct tools_list_request {};
// We never hand out cursors, so any cursor is invalid (-32602); prompts/list takes the same params.
parsed<tools_list_request> parse_tools_list(const json::object& params);

struct tools_call_request {
  std::string name;
  json::object arguments;          // {} when absent
  json::value progress_token;      // null: the caller wants no progress
  // 2026-07-28 retries (multi round-trip requests): the answers and the echoed state.
  std::optional<json::value> input_responses;  // as sent (the pipeline says what is wrong with it)
  std::optional<std::string> request_state;
};
parsed<tools_call_request> parse_tools_call(const json::object& params);

struct set_level_request {
  log_level level = log_level::info;
};
parsed<set_level_request> parse_set_level(const json::object& params);

// notifications/cancelled: the id of the request to cancel; nullopt when malformed
// (malformed cancellations are ignored, never answered).
std::optional<json::value> parse_cancelled(const json::object& params);

}  // namespace opentabs::mcp
