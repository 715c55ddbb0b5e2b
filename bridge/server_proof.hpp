// The client's half of the peer proof (util/peer_proof.hpp), shared by the stdio bridge, the
// native host and `opentabs doctor` / `start`: before any credential leaves this process, the
// program on the port must answer a fresh challenge with an HMAC only the secret makes.  A
// listener that cannot (or stays silent) is named as not opentabs and gets nothing more.
// Kept apart from the relaying so the bridge's other handlers stay as they are.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "net/asio.hpp"
#include "util/result.hpp"

namespace opentabs::bridge {

inline constexpr std::chrono::milliseconds kProofTimeout{3'000};

// The Authorization value ("OpenTabs-Proof <token>") the proven server accepts, valid until it
// exits.  Errors: "connect_failed" (nothing listens), "not_opentabs" (a listener that did not
// prove the secret; the message names the port and what to do).
net::awaitable<result<std::string>> prove_server(std::uint16_t port, std::string_view secret,
                                                 std::chrono::milliseconds timeout = kProofTimeout);

// The same on a private io_context, for synchronous callers (CLI commands, the native host).
result<std::string> prove_server_now(std::uint16_t port, std::string_view secret,
                                     std::chrono::milliseconds timeout = kProofTimeout);

// "pid 1234 (python3)" of the process of this user that listens on 127.0.0.1:<port> (or on
// any address), from /proc; empty when it cannot be told.
std::string describe_port_owner(std::uint16_t port);

}  // namespace opentabs::bridge
