// The plugins the server has loaded and the tools it offers: the loaded plugins in registry
// order, the ones that failed to load, the tool registry and the updates npm knows of.
// The reload pipeline replaces it as a whole (the plugin manager records update checks);
// the tool pipeline, the backends and the payloads only read it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/tool_registry.hpp"
#include "plugins/discovery.hpp"
#include "plugins/payload.hpp"
#include "plugins/plugin.hpp"

namespace opentabs::app {

struct plugin_catalog {
  std::vector<plugins::plugin> plugins;                    // loaded, registry order
  std::vector<plugins::discovery_error> discovery_errors;  // broken plugins and skipped paths
  tool_registry registry;

  // npm package name -> the newer version the last update check found (spec: the `update`
  // field of plugins in sync.full and the config state).
  std::map<std::string, plugins::update_info, std::less<>> plugin_updates;

  std::optional<plugins::update_info> update_for(const plugins::plugin& p) const {
    if (p.loaded.source != "npm") return std::nullopt;
    auto it = plugin_updates.find(p.loaded.package_name);
    if (it == plugin_updates.end()) return std::nullopt;
    return it->second;
  }

  const plugins::plugin* find_plugin(std::string_view name) const {
    for (const auto& p : plugins)
      if (p.name() == name) return &p;
    return nullptr;
  }
};

}  // namespace opentabs::app
