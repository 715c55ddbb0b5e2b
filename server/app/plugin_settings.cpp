#include "app/plugin_settings.hpp"

#include "config/config_edits.hpp"
#include "plugins/naming.hpp"
#include "plugins/settings.hpp"
#include "util/log.hpp"
#include "util/strings.hpp"

namespace opentabs::app {

namespace {

const plugins::plugin* find_loaded(const std::vector<plugins::plugin>& loaded, const std::string& name) {
  for (const auto& p : loaded)
    if (p.name() == name) return &p;
  return nullptr;
}

}  // namespace

std::optional<std::string> unloaded_plugin_settings_problem(const std::string& plugin, const json::object& settings) {
  if (!plugins::is_valid_plugin_name(plugin))
    return "\"" + plugin.substr(0, 64) + (plugin.size() > 64 ? "…" : "") +
           "\" is not a plugin name (lowercase letters, digits and hyphens)";
  if (auto size = json::dump(settings).size(); size > max_unloaded_settings_bytes)
    return "settings are " + std::to_string(size) + " bytes of JSON; the limit is " +
           std::to_string(max_unloaded_settings_bytes);
  return std::nullopt;
}

std::optional<std::string> settings_problem(const std::vector<plugins::plugin>& loaded, const std::string& plugin,
                                            const json::object& settings) {
  const auto* p = find_loaded(loaded, plugin);
  if (!p) return unloaded_plugin_settings_problem(plugin, settings);
  auto v = plugins::validate_settings(p->loaded.config_fields, settings);
  if (!v) {
    auto msg = v.err().message;
    const std::string prefix = "Settings validation failed: ";
    if (starts_with(msg, prefix)) msg = msg.substr(prefix.size());
    return msg;
  }
  return std::nullopt;
}

plugin_settings::plugin_settings(server_config& config, const plugin_catalog& catalog, reload_pipeline& reload)
    : config_(config), catalog_(catalog), reload_(reload) {}

std::optional<std::string> plugin_settings::problem(const std::string& plugin, const json::object& settings) const {
  return settings_problem(catalog_.plugins, plugin, settings);
}

std::string plugin_settings::store(const std::string& plugin, const json::object& settings) {
  json::object values = settings;
  if (const auto* p = catalog_.find_plugin(plugin)) {
    auto v = plugins::validate_settings(p->loaded.config_fields, settings);
    if (!v) return v.err().message;
    values = std::move(*v);
  } else if (auto problem = unloaded_plugin_settings_problem(plugin, settings)) {
    return "Settings validation failed: " + *problem;
  }
  auto r = config_.store.update([plugin, values](json::object& root) -> result<bool> { return config::set_plugin_settings(root, plugin, values); });
  if (!r) return "Could not save config.json: " + r.err().message;
  reload_.reload(reload_cause::own_change);
  return {};
}

std::string plugin_settings::grant_reviewed(const std::string& plugin, tools::permission level, const std::string& version) {
  config::plugin_permission_change change;
  change.level = level;
  change.reviewed_version = version;
  auto r = config_.store.update([plugin, change](json::object& root) -> result<bool> { return config::set_plugin_permission(root, plugin, change); });
  if (!r) return "Could not save config.json: " + r.err().message;
  reload_.apply_own_change(false, &r->cfg);
  return {};
}

void plugin_settings::always_allow(const tools::tool_def& tool) {
  auto r = config_.store.update([plugin = tool.plugin, name = tool.base_name](json::object& root) -> result<bool> {
    return config::set_tool_permission(root, plugin, name, tools::permission::auto_);
  });
  if (!r) log::warn("could not save \"always allow\": " + r.err().message);
  reload_.apply_own_change(false, r ? &r->cfg : nullptr);
}

}  // namespace opentabs::app
