// What can go wrong reaching the local opentabs server, as the bridge and the CLI branch on
// it: nothing listens (start one, or report "not running"), something else listens (never
// send it our secret), the port is taken by another program (starting cannot help).
#pragma once

#include <string_view>
#include <system_error>

#include "util/failure_reason.hpp"

namespace opentabs::bridge {

enum class contact_failure {
  server_not_running,  // nothing answers on the port (and starting one failed, when asked to)
  not_opentabs,        // something answers but does not prove it is an opentabs server
  port_in_use,         // another program holds the port, so no server can start there
};

constexpr std::string_view to_string(contact_failure f) {
  switch (f) {
    case contact_failure::server_not_running: return "server_not_running";
    case contact_failure::not_opentabs: return "not_opentabs";
    case contact_failure::port_in_use: return "port_in_use";
  }
  return "server_not_running";
}

constexpr errc kind_of(contact_failure f) {
  switch (f) {
    case contact_failure::server_not_running:
    case contact_failure::not_opentabs: return errc::unavailable;
    case contact_failure::port_in_use: return errc::busy;
  }
  return errc::unavailable;
}

inline std::error_code make_error_code(contact_failure f) { return reason_code(f); }

}  // namespace opentabs::bridge

template <>
struct std::is_error_code_enum<opentabs::bridge::contact_failure> : std::true_type {};
