// The network failures callers branch on: a client retries on a new connection unless the
// request was cancelled, the bridge and the CLI read "connection refused" as "no server
// running", and the server exits with its own status when its port is taken.
#pragma once

#include <string_view>
#include <system_error>

#include "util/failure_reason.hpp"

namespace opentabs::net {

enum class net_failure {
  connect_failed,  // nothing accepted the connection (refused, unreachable, not an address)
  cancelled,       // the caller cancelled the request (shutdown)
  truncated,       // the peer closed the connection before a complete response
  bad_response,    // the peer's bytes are not a valid HTTP response
  port_busy,       // another process listens on the port the server wants
};

constexpr std::string_view to_string(net_failure f) {
  switch (f) {
    case net_failure::connect_failed: return "connect_failed";
    case net_failure::cancelled: return "cancelled";
    case net_failure::truncated: return "truncated";
    case net_failure::bad_response: return "bad_response";
    case net_failure::port_busy: return "port_busy";
  }
  return "connect_failed";
}

constexpr errc kind_of(net_failure f) {
  switch (f) {
    case net_failure::cancelled: return errc::cancelled;
    case net_failure::connect_failed:
    case net_failure::truncated:
    case net_failure::bad_response: return errc::unavailable;
    case net_failure::port_busy: return errc::busy;
  }
  return errc::unavailable;
}

inline std::error_code make_error_code(net_failure f) { return reason_code(f); }

}  // namespace opentabs::net

template <>
struct std::is_error_code_enum<opentabs::net::net_failure> : std::true_type {};
