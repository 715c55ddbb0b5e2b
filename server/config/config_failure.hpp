// The config failure callers branch on: another writer holds config.json's lock, which a
// deferred write waits out instead of reporting.
#pragma once

#include <string_view>
#include <system_error>

#include "util/failure_reason.hpp"

namespace opentabs::config {

enum class config_failure {
  locked,  // another process holds the config lock
};

constexpr std::string_view to_string(config_failure) { return "locked"; }
constexpr errc kind_of(config_failure) { return errc::busy; }
inline std::error_code make_error_code(config_failure f) { return reason_code(f); }

}  // namespace opentabs::config

template <>
struct std::is_error_code_enum<opentabs::config::config_failure> : std::true_type {};
