// Makes sure an opentabs server answers on the bridge's port: probes GET /health and, when
// nothing listens, starts one the same way a person would — `opentabs start --background
// --port <p>` (this very binary, so pid file and server.log are handled by `start`), in its
// own session with /dev/null as stdin and none of the bridge's descriptors (the client's
// pipes must close when the bridge exits) — then polls /health until it answers or the
// deadline passes.  When two bridges start servers at once, the loser's start reports
// "already running" and the probe finds the winner.  So an MCP client configured with
// {"command":"opentabs","args":["start","--stdio"]} works with no manual step.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>

#include "bridge/bridge_log.hpp"
#include "net/asio.hpp"
#include "util/result.hpp"

namespace opentabs::bridge {

struct launcher_options {
  std::uint16_t port = 9515;
  bool auto_start = true;
  std::chrono::milliseconds start_timeout{15'000};
  std::chrono::milliseconds poll_interval{250};
};

// Error contact_failure::server_not_running (auto-start off or failed, with the reason) or
// contact_failure::port_in_use (something that is not opentabs answers on the port).
net::awaitable<status> ensure_server(const launcher_options& options, const bridge_log& log);

// One unauthenticated GET /health: ok when an opentabs server (x-opentabs-version) answers.
net::awaitable<status> probe_server(std::uint16_t port);

}  // namespace opentabs::bridge
