// Runs the opentabs server in the calling thread until SIGINT/SIGTERM: loads config and
// secret, discovers plugins, installs the extension copy, listens, serves, shuts down
// gracefully.  `opentabs start` calls this in-process.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace opentabs::app {

struct server_options {
  std::string host = "127.0.0.1";
  std::uint16_t port = 9515;           // 0 = ephemeral (printed on start)
  std::filesystem::path config_dir;    // empty: $OPENTABS_CONFIG_DIR or ~/.opentabs
  bool dev = false;                    // --dev / OPENTABS_DEV=1
  // Test mode for the MCP conformance suite: no auth and the suite's fixture tools.
  // Refused unless host is a loopback address; logged loudly.
  bool conformance_mode = false;
  // Called once the socket is bound, with the real port, before any request is served
  // (server.pid: whoever gets an answer finds it).
  std::function<void(std::uint16_t)> on_bound;
  // Called when the server is ready — bound, and the extension copy in place — with the
  // real port (the one to give clients when `port` was 0), before the "listening on" line.
  std::function<void(std::uint16_t)> on_listening;
};

// Reads PORT, OPENTABS_DEV, ... into options (command-line flags applied afterwards win).
server_options options_from_env();

// Exit code of run_server when the port is already taken (another server won it), so a
// caller can tell that apart from other failures.
inline constexpr int kExitPortBusy = 3;

// Returns the process exit code (0 after a graceful shutdown, kExitPortBusy, else 1 or 2).
int run_server(const server_options& options);

}  // namespace opentabs::app
