// What the server does with each method the extension sends (spec §3.5): tab state,
// config.* changes (validated, persisted section-wise, then announced), confirmation
// answers and plugin logs, registered in the hub's method table.  Plugin management (npm),
// folder.open (plugin_manager) and webmcp.* (webmcp_bridge) register their own entries in
// the same table.  Every rejection is an error (extension_wire.hpp) whose message names the
// bad field.
#pragma once

#include <optional>
#include <string>

#include "app/confirmations.hpp"
#include "app/extension_hub.hpp"
#include "app/plugin_settings.hpp"
#include "app/reload_pipeline.hpp"
#include "app/plugin_catalog.hpp"
#include "app/runtime_stats.hpp"
#include "app/server_config.hpp"
#include "app/webmcp_directory.hpp"
#include "tools/events.hpp"

namespace opentabs::app {

struct handler_context {
  server_config& config;  // config.setPluginPermission & co. write through its store
  const plugin_catalog& catalog;
  const webmcp_directory& webmcp;
  std::map<std::string, log_ring>& plugin_logs;  // plugin.log fills them
  extension_hub& hub;
  confirmations& confirm;
  tools::server_events& events;
  // After the server changed config.json itself, apply_own_change takes what
  // config_store::update just wrote into state without reading the file back, and
  // announces it (plugins.changed, tools/list_changed).
  reload_pipeline& reload;
  // Validates settings against the plugin's configSchema (problem()).
  const plugin_settings& settings;
};

// Adds tab.*, plugin.log, confirmation.response, extension.capabilities, sync.requestFull,
// config.* and server.selfUpdate to `table`.
void register_extension_handlers(extension_hub::method_table& table, handler_context ctx);

}  // namespace opentabs::app
