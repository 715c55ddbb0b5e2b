// Permission resolution (spec §2.2) over the typed config:
//   configured(plugin, tool) = permissions[plugin].tools[tool] → browserToolGroups[group of a
//                              built-in browser tool] → permissions[plugin].permission → off
//   effective                = configured, except ask → auto while skip-permissions is on
// Plugin tools use the plugin name and the tool's base name ("send_message"); built-in
// browser tools use plugin key "browser" and the full tool name ("browser_list_tabs") —
// exactly tool_def::plugin / tool_def::base_name.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "config/config.hpp"
#include "tools/tool.hpp"

namespace opentabs::config {

tools::permission configured_permission(const config_file& cfg, std::string_view plugin, std::string_view tool);

// `off` stays `off` even when skipping: skip-permissions only removes the approval prompt.
tools::permission effective_permission(tools::permission configured, bool skip_permissions) noexcept;

tools::permission effective_permission(const config_file& cfg, std::string_view plugin, std::string_view tool,
                                       bool skip_permissions);

// The plugin-level setting alone (the side panel shows it per plugin); off when unset.
tools::permission plugin_permission(const config_file& cfg, std::string_view plugin);

// `reviewed` as sent to the extension: reviewedVersion equals the installed version.
bool is_reviewed(const config_file& cfg, std::string_view plugin, std::string_view installed_version);

}  // namespace opentabs::config
