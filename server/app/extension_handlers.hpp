// What the server does with each method the extension sends (spec §3.5): tab state,
// config.* changes (validated, persisted section-wise, then announced), confirmation
// answers and plugin logs, registered in the hub's method table.  Plugin management (npm),
// folder.open (plugin_manager) and webmcp.* (webmcp_bridge) register their own entries in
// the same table.  Every rejection is an error (extension_wire.hpp) whose message names the
// bad field.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "app/confirmations.hpp"
#include "app/extension_hub.hpp"
#include "app/server_state.hpp"
#include "tools/events.hpp"

namespace opentabs::app {

struct handler_context {
  server_state& state;
  extension_hub& hub;
  confirmations& confirm;
  tools::server_events& events;
  // After the server changed config.json itself: takes `saved` (what config_store::update
  // just wrote; null when only runtime state changed) into state without reading the file
  // back, and announces it (plugins.changed, tools/list_changed).  `rediscover` also
  // reloads plugins.
  std::function<void(bool rediscover, const config::config_file* saved)> config_changed;
  std::function<json::object()> sync_params;   // sync.full params
  std::function<json::object()> config_state;  // config.getState result
  // Validates settings against the plugin's configSchema; an error text or nullopt.
  std::function<std::optional<std::string>(const std::string& plugin, const json::object& settings)> validate_settings;
};

// Adds tab.*, plugin.log, confirmation.response, extension.capabilities, sync.requestFull,
// config.* and server.selfUpdate to `table`.
void register_extension_handlers(extension_hub::method_table& table, handler_context ctx);

}  // namespace opentabs::app
