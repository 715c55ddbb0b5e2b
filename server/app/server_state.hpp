// Everything the running server knows, composed from the pieces its parts are given: the
// config view, the plugin catalog, the WebMCP directory, the audit log and the runtime
// statistics.  The server owns it; each part is built with a reference to the pieces it
// reads or writes, and only /health reads the whole.
#pragma once

#include <filesystem>

#include "app/plugin_catalog.hpp"
#include "app/runtime_stats.hpp"
#include "app/server_config.hpp"
#include "app/webmcp_directory.hpp"
#include "audit/audit_log.hpp"

namespace opentabs::app {

struct server_state {
  server_state(config::config_paths p, std::filesystem::path home)
      : config(std::move(p), std::move(home)), audit(audit::persisted_to(config.paths.audit_log())) {}

  server_config config;
  plugin_catalog catalog;
  webmcp_directory webmcp;  // tools pages publish through WebMCP (not reloaded: pages own them)
  audit::audit_log audit;
  runtime_stats stats;
};

}  // namespace opentabs::app
