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
  // A connection's reader starts the next (pipelined) request only while fewer bytes than
  // this wait to be written: a client that pipelines requests and reads no answers holds at
  // most this plus one answer, not outbox_capacity answers (megabytes each for GET /tools).
  std::size_t pipelined_answer_bytes = 1024 * 1024;
  // Connection slots.  Sockets that have not yet shown the secret (bearer or WebSocket
  // subprotocol) may hold at most max_connections - reserved_connections of them; the
  // rest stay free for the extension and authenticated clients.  When the unauthenticated
  // share is full, a new socket takes the slot of the oldest idle unauthenticated one.
  std::size_t max_connections = 1024;     // accepted sockets at once
  std::size_t reserved_connections = 64;  // kept for authenticated connections
  // Connections one caller (peer_proof::caller_identity: every bearer client is one caller,
  // each proof credential another) may have inside requests at once (held streams, calls);
  // its next request is refused (429) unless one of them lost its client.  Three
  // quarters of the table: every bearer client together still runs 500 calls at once
  // (fault_load), and a quarter of the slots stays for the extension, /health and the others.
  std::size_t connections_per_caller = 768;
  // Request bodies of not-yet-authenticated requests (heads are screened before any body
  // byte is read, so only requests a route admits without the secret get here) share this
  // many buffered bytes in total; a request that would exceed it gets 503 + Retry-After.
  std::size_t unauthenticated_body_bytes = 4 * 1024 * 1024;
  std::chrono::milliseconds head_timeout{10'000};       // first byte to end of head
  std::chrono::milliseconds body_timeout{30'000};       // end of head to end of body
  std::chrono::milliseconds keepalive_idle{60'000};     // between requests on one connection
  std::chrono::milliseconds write_timeout{30'000};      // one write to a peer that stopped reading
  std::chrono::milliseconds ws_ping_after{30'000};      // WebSocket silence before we ping
  std::chrono::milliseconds ws_pong_timeout{10'000};    // answer expected after our ping
  // After refusing a request whose body was not read, the body is read and discarded for
  // this long (so the peer reads the answer instead of a reset), then the socket closes.
  std::chrono::milliseconds refused_body_linger{2'000};
  // accept() failing for lack of file descriptors: the oldest idle unauthenticated connection
  // is closed to free one and accept retried at once; with none to close, retry when a
  // connection ends or after this, doubling up to the cap.
  std::chrono::milliseconds accept_backoff_min{50};
  std::chrono::milliseconds accept_backoff_max{1'000};
  // Running out of descriptors is logged once per episode; an episode ends after this long
  // without another such failure.
  std::chrono::milliseconds fd_exhaustion_quiet{60'000};
};

}  // namespace opentabs::net
