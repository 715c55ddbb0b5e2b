// The plugin-files failure callers branch on: a file the manifest names that escapes the
// plugin's directory (or is not a regular file), which the loader reports as the plugin's
// load error with the file named.
#pragma once

#include <string_view>
#include <system_error>

#include "util/failure_reason.hpp"

namespace opentabs::plugins {

enum class plugin_failure {
  unsafe_file,  // a named file leaves the plugin directory or is not a regular file
};

constexpr std::string_view to_string(plugin_failure) { return "unsafe_file"; }
constexpr errc kind_of(plugin_failure) { return errc::invalid_params; }
inline std::error_code make_error_code(plugin_failure f) { return reason_code(f); }

}  // namespace opentabs::plugins

template <>
struct std::is_error_code_enum<opentabs::plugins::plugin_failure> : std::true_type {};
