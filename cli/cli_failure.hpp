// The CLI's own failure codes: what `opentabs --json <command>` prints as error.code and
// scripts match on, so each text is stable.  Failures that are plain categories (io,
// not_found, timeout …) use util/errc.hpp instead; `usage` also selects the exit status.
#pragma once

#include <string_view>
#include <system_error>

#include "util/failure_reason.hpp"

namespace opentabs::cli {

enum class cli_failure {
  usage,              // the command line is wrong
  bad_secret,         // the secret file is unusable, or the server rejected the credential
  no_secret,          // no secret file to talk to the server with
  forbidden,          // the server refused the request
  invalid_pid_file,   // server.pid holds something else than what `start` writes
  not_running,        // no server process to stop
  not_background,     // the server runs, but not as `start --background` (cannot be stopped here)
  start_failed,       // the server exited or refused to start
  start_timeout,      // the started server did not answer in time
  stop_timeout,       // the server did not stop in time
  server_error,       // the server answered with an HTTP error
  npm_missing,        // npm is not installed
  npm_failed,         // npm ran and failed
  install_failed,     // no candidate package could be installed
  remove_failed,      // npm could not uninstall the package
  plugin_not_found,   // no plugin of that name on the server
  exists,             // the target directory is already there and not empty
  foreign_extension,  // the extension directory holds files that are not ours
  no_extension,       // the extension files to install were not found
  already_running,    // an opentabs server already serves the port `start` wants
};

constexpr std::string_view to_string(cli_failure f) {
  switch (f) {
    case cli_failure::usage: return "usage";
    case cli_failure::bad_secret: return "bad_secret";
    case cli_failure::no_secret: return "no_secret";
    case cli_failure::forbidden: return "forbidden";
    case cli_failure::invalid_pid_file: return "invalid_pid_file";
    case cli_failure::not_running: return "not_running";
    case cli_failure::not_background: return "not_background";
    case cli_failure::start_failed: return "start_failed";
    case cli_failure::start_timeout: return "start_timeout";
    case cli_failure::stop_timeout: return "stop_timeout";
    case cli_failure::server_error: return "server_error";
    case cli_failure::npm_missing: return "npm_missing";
    case cli_failure::npm_failed: return "npm_failed";
    case cli_failure::install_failed: return "install_failed";
    case cli_failure::remove_failed: return "remove_failed";
    case cli_failure::plugin_not_found: return "plugin_not_found";
    case cli_failure::exists: return "exists";
    case cli_failure::foreign_extension: return "foreign_extension";
    case cli_failure::no_extension: return "no_extension";
    case cli_failure::already_running: return "already_running";
  }
  return "usage";
}

constexpr errc kind_of(cli_failure f) {
  switch (f) {
    case cli_failure::usage:
    case cli_failure::invalid_pid_file:
    case cli_failure::exists: return errc::invalid_params;
    case cli_failure::bad_secret:
    case cli_failure::no_secret:
    case cli_failure::forbidden: return errc::denied;
    case cli_failure::not_running:
    case cli_failure::start_failed:
    case cli_failure::server_error:
    case cli_failure::npm_missing: return errc::unavailable;
    case cli_failure::not_background:
    case cli_failure::foreign_extension: return errc::unsupported;
    case cli_failure::start_timeout:
    case cli_failure::stop_timeout: return errc::timeout;
    case cli_failure::npm_failed:
    case cli_failure::install_failed:
    case cli_failure::remove_failed: return errc::io;
    case cli_failure::plugin_not_found:
    case cli_failure::no_extension: return errc::not_found;
    case cli_failure::already_running: return errc::busy;
  }
  return errc::invalid_params;
}

inline std::error_code make_error_code(cli_failure f) { return reason_code(f); }

}  // namespace opentabs::cli

template <>
struct std::is_error_code_enum<opentabs::cli::cli_failure> : std::true_type {};
