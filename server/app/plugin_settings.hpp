// What the server itself writes into a plugin's entry of config.json, each write validated
// first and then taken in through the reload pipeline: settings (checked against the
// plugin's configSchema, or for a plugin not loaded yet against its name and a size
// bound — spec §3.5), a reviewed permission grant (platform tools) and a tool's "always
// allow" (the confirmation dialog).  Error texts name what was wrong.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/permission_grants.hpp"
#include "app/reload_pipeline.hpp"
#include "app/plugin_catalog.hpp"
#include "app/server_config.hpp"
#include "json/json.hpp"
#include "plugins/plugin.hpp"
#include "tools/tool.hpp"

namespace opentabs::app {

// Settings for a plugin that is not loaded are stored unvalidated (they may be set before
// the plugin is installed), but only under a name a plugin can have and within
// max_unloaded_settings_bytes of JSON.  The problem, or nullopt.
inline constexpr std::size_t max_unloaded_settings_bytes = 64 * 1024;
std::optional<std::string> unloaded_plugin_settings_problem(const std::string& plugin, const json::object& settings);

// The problem with `settings` for `plugin` (found among `loaded`, else checked as above),
// without the "Settings validation failed: " prefix; nullopt when they are acceptable.
std::optional<std::string> settings_problem(const std::vector<plugins::plugin>& loaded, const std::string& plugin,
                                            const json::object& settings);

class plugin_settings final : public permission_grants {
 public:
  plugin_settings(server_config& config, const plugin_catalog& catalog, reload_pipeline& reload);

  // handler_context::validate_settings (config.setPluginSettings from the extension).
  std::optional<std::string> problem(const std::string& plugin, const json::object& settings) const;
  // POST /plugins/settings: validates, stores and reloads.  An error text, or empty.
  std::string store(const std::string& plugin, const json::object& settings);
  // platform_tools: the user reviewed `plugin` at `version` and grants `level`.  An error
  // text, or empty.
  std::string grant_reviewed(const std::string& plugin, tools::permission level, const std::string& version) override;
  // tool_pipeline: the user chose "always allow" for `tool` in a confirmation.
  void always_allow(const tools::tool_def& tool) override;

 private:
  server_config& config_;  // its store writes config.json
  const plugin_catalog& catalog_;
  reload_pipeline& reload_;
};

}  // namespace opentabs::app
