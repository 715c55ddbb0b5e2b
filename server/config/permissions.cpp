#include "config/permissions.hpp"

#include <optional>

#include "tools/browser_catalog.hpp"

namespace opentabs::config {
namespace {

const plugin_permissions* entry_for(const config_file& cfg, std::string_view plugin) {
  auto it = cfg.permissions.find(std::string(plugin));
  return it == cfg.permissions.end() ? nullptr : &it->second;
}

// The browserToolGroups level of a built-in browser tool's group, if one is set.
std::optional<tools::permission> group_permission(const config_file& cfg, std::string_view plugin, std::string_view tool) {
  if (plugin != kBrowserPermissionKey || cfg.browser_tool_groups.empty()) return std::nullopt;
  const tools::tool_def* def = tools::find_browser_tool(tool);
  if (!def) return std::nullopt;
  auto it = cfg.browser_tool_groups.find(def->group);
  return it == cfg.browser_tool_groups.end() ? std::nullopt : std::optional(it->second);
}

}  // namespace

tools::permission configured_permission(const config_file& cfg, std::string_view plugin, std::string_view tool) {
  const auto* entry = entry_for(cfg, plugin);
  if (entry)
    if (auto it = entry->tools.find(std::string(tool)); it != entry->tools.end()) return it->second;
  if (auto group = group_permission(cfg, plugin, tool)) return *group;
  if (!entry) return tools::permission::off;
  return entry->permission.value_or(tools::permission::off);
}

tools::permission effective_permission(tools::permission configured, bool skip_permissions) noexcept {
  if (skip_permissions && configured == tools::permission::ask) return tools::permission::auto_;
  return configured;
}

tools::permission effective_permission(const config_file& cfg, std::string_view plugin, std::string_view tool,
                                       bool skip_permissions) {
  return effective_permission(configured_permission(cfg, plugin, tool), skip_permissions);
}

tools::permission plugin_permission(const config_file& cfg, std::string_view plugin) {
  const auto* entry = entry_for(cfg, plugin);
  return entry ? entry->permission.value_or(tools::permission::off) : tools::permission::off;
}

bool is_reviewed(const config_file& cfg, std::string_view plugin, std::string_view installed_version) {
  const auto* entry = entry_for(cfg, plugin);
  return entry && entry->reviewed_version && *entry->reviewed_version == installed_version;
}

}  // namespace opentabs::config
