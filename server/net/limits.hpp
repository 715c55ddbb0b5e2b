// Every limit and deadline of the network layer in one place (style habit 15).  Defaults
// are the production values; tests shorten them through explicit knobs (environment
// variables read by the app), never by sleeping.
#pragma once

#include <chrono>
#include <cstddef>

namespace opentabs::net {

struct limits {
  std::size_t max_body_bytes = 10 * 1024 * 1024;        // 413 beyond
  std::size_t max_ws_message_bytes = 20 * 1024 * 1024;  // close 1009 beyond
  std::size_t outbox_capacity = 4096;                   // queued writes per socket
  std::size_t max_connections = 1024;                   // accepted sockets at once
  std::chrono::milliseconds head_timeout{10'000};       // first byte to end of head
  std::chrono::milliseconds body_timeout{30'000};       // end of head to end of body
  std::chrono::milliseconds keepalive_idle{60'000};     // between requests on one connection
  std::chrono::milliseconds write_timeout{30'000};      // one write to a peer that stopped reading
  std::chrono::milliseconds ws_ping_after{30'000};      // WebSocket silence before we ping
  std::chrono::milliseconds ws_pong_timeout{10'000};    // answer expected after our ping
};

}  // namespace opentabs::net
