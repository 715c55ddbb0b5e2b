// `opentabs start --stdio`: the stdio MCP bridge (spec §6.9, mcp.md §3.12).  Its own
// coroutine program on its own io_context: newline-delimited JSON-RPC from stdin is POSTed
// to the running server's /mcp (bearer auth, session id kept, SSE answers parsed, several
// requests in flight at once); the server's notifications from the GET stream are written
// to stdout too; stdout carries protocol bytes only (one writer); diagnostics go to
// <configDir>/logs/stdio-bridge.log and stderr.  When no server runs it starts one in the
// background; when the server restarts (404 for the session) it re-initializes with the
// client's own initialize request and retries, so the client never notices.  EOF on stdin
// ends it cleanly: in-flight requests finish, the session is deleted, exit 0.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

#include "bridge/line_splitter.hpp"
#include "config/config_paths.hpp"

namespace opentabs::bridge {

struct bridge_options {
  std::uint16_t port = 9515;
  config::config_paths paths;
  bool auto_start = true;
  std::chrono::milliseconds server_start_timeout{15'000};
  std::chrono::milliseconds request_timeout{300'000};  // one POST, as the original bridge
  std::chrono::milliseconds stream_retry_min{1'000};   // GET stream reconnect back-off
  std::chrono::milliseconds stream_retry_max{30'000};
  std::size_t max_line_bytes = kDefaultMaxLineBytes;
};

// Applies the test knobs OPENTABS_BRIDGE_START_TIMEOUT_MS and OPENTABS_BRIDGE_RETRY_MS.
bridge_options with_env_knobs(bridge_options options);

// Runs until stdin ends (or SIGTERM/SIGINT).  Returns the process exit code.
int run_stdio_bridge(const bridge_options& options);

}  // namespace opentabs::bridge
