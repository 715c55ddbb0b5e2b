// Section-preserving edits of config.json, as pure functions on the parsed JSON object.
// Each touches only the part it names (one plugin's permission entry, one plugin's
// settings, one list) and leaves every other key, including ones a person added by hand
// and keys this server does not know, byte-for-byte as it found them (key order too).
// config_store wraps them in read → edit → atomic write.  All return whether anything
// changed so callers can skip a pointless write.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "json/json.hpp"
#include "tools/tool.hpp"

namespace opentabs::config {

// permissions.<plugin>.tools.<tool> = level.  Browser tools: plugin "browser", full tool name.
bool set_tool_permission(json::object& root, std::string_view plugin, std::string_view tool, tools::permission level);
// Removes one override (the tool falls back to the plugin level); drops emptied containers.
bool remove_tool_permission(json::object& root, std::string_view plugin, std::string_view tool);

struct plugin_permission_change {
  tools::permission level = tools::permission::off;
  // Set when the change comes from a review ("plugin_mark_reviewed", side panel "Enable
  // anyway"); nullopt leaves an existing reviewedVersion alone.
  std::optional<std::string> reviewed_version;
  // The server's plugin-level change replaces per-tool overrides (spec §2.2 / side panel).
  bool clear_tool_overrides = true;
};
bool set_plugin_permission(json::object& root, std::string_view plugin, const plugin_permission_change& change);
// Removes permissions.<plugin> entirely (everything of that plugin back to off).
bool remove_plugin_permissions(json::object& root, std::string_view plugin);

// Replaces settings.<plugin>; an empty object removes the plugin's entry.
bool set_plugin_settings(json::object& root, std::string_view plugin, const json::object& values);
// settings.<plugin>.<key> = value, or removes the key when value is nullopt.
bool set_plugin_setting(json::object& root, std::string_view plugin, std::string_view key,
                        const std::optional<json::value>& value);

// Appends to / removes from a top-level string list ("localPlugins",
// "localPluginDirs", "additionalAllowedDirectories").  add is a no-op for a duplicate.
bool add_to_string_list(json::object& root, std::string_view list_key, std::string_view entry);
bool remove_from_string_list(json::object& root, std::string_view list_key, std::string_view entry);

struct prune_inputs {
  // Loaded plugins (and "browser") → the tool override keys that exist now.
  std::map<std::string, std::set<std::string>> tools_by_plugin;
  // Plugins whose entries survive untouched even though they are not loaded (for example
  // a configured local plugin that failed to load this time and will be fixed).
  std::set<std::string> keep;
};
// Removes permission entries of plugins that are gone (never "browser") and overrides of
// tools that no longer exist.  Returns one human-readable line per removal, for the log.
std::vector<std::string> prune_permissions(json::object& root, const prune_inputs& inputs);

// The review reset of spec §2.2: every installed plugin whose stored reviewedVersion differs
// from its installed version goes back to {"permission":"off"} (reviewedVersion and tool
// overrides removed).  Entries without a reviewedVersion are not touched: nothing was
// reviewed, so nothing became stale.  Returns the names of the plugins reset.
std::vector<std::string> reset_stale_reviews(json::object& root,
                                             const std::map<std::string, std::string>& installed_versions);

}  // namespace opentabs::config
