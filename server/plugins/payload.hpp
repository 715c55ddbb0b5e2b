// JSON payloads describing a plugin to the extension (spec §3.6): the core plugin object
// (sync.full, plugin.update, config state), SyncPlugin (sync.full), and the config-state
// entry.  Key names and order follow what the real server sends; optional keys are
// omitted when empty.  Permissions come from the caller as plain values.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "json/json.hpp"
#include "plugins/plugin.hpp"
#include "tools/tool.hpp"

namespace opentabs::plugins {

// The configured (not skip-adjusted) permissions of one plugin.
struct permission_state {
  tools::permission plugin = tools::permission::off;  // plugin default
  bool reviewed = false;                               // reviewedVersion == installed version
  std::map<std::string, tools::permission, std::less<>> tools;  // per-tool overrides by base name

  // tools[tool] → plugin default (§2.2).
  tools::permission configured(std::string_view tool) const;
};

// {latestVersion, updateCommand} when an npm update is known.
struct update_info {
  std::string latest_version;
  std::string update_command;
  bool operator==(const update_info&) const = default;
};

json::object core_plugin_payload(const plugin& p, const permission_state& perms);

// core + sourcePath, adapterHash, adapterFile, source, sdkVersion?, update?, configSchema?,
// resolvedSettings?, preScriptFile?, preScriptHash?
json::object sync_plugin_payload(const plugin& p, const permission_state& perms,
                                 const std::optional<update_info>& update = std::nullopt);

// core + source, tabState, sdkVersion?, update?, configSchema?, resolvedSettings?
json::object config_state_plugin_payload(const plugin& p, const permission_state& perms, std::string_view tab_state,
                                         const std::optional<update_info>& update = std::nullopt);

}  // namespace opentabs::plugins
