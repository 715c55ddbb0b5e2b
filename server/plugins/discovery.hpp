// Plugin discovery (spec §4.3, §2.1): global npm packages, `localPlugins` (`~/`, relative to
// the config dir, npm package names resolved from cwd), `localPluginDirs` expansion, the
// allowed-roots rule, loading, and the merge in which local plugins win.  A broken plugin
// becomes a {specifier, error, source} entry; every other plugin still loads.  Only
// non-throwing filesystem calls are used, so a directory vanishing mid-scan is an error
// entry, never a crash.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "plugins/loader.hpp"

namespace opentabs::plugins {

struct discovery_error {
  std::string specifier;  // as written in config.json, or the npm package directory
  std::string error;
  std::string source;     // "npm" | "local"
  // A localPlugins path that does not exist (a folder deleted or not created yet): listed in
  // /health discoveryErrors but, as in the original, not a failed plugin.
  bool path_missing = false;
};

struct discovery_input {
  std::vector<std::string> local_plugins;
  std::vector<std::string> local_plugin_dirs;
  std::vector<std::string> additional_allowed_directories;
  fs::path config_dir;
  fs::path home;
  fs::path tmpdir;
  fs::path cwd;
  // Output of `npm root -g` (the caller runs and caches it); nullopt or empty = no npm
  // scan.  The scan is also skipped when OPENTABS_SKIP_NPM_DISCOVERY=1.
  std::optional<fs::path> npm_global_root;
  load_options load;
  // MCP names of the server's own tools: a plugin whose tool would be published under one of
  // them (or under a name an earlier plugin's tool already has) is refused.
  std::vector<std::string> builtin_tool_names;
  // Test seam: called just before each plugin directory is loaded.
  std::function<void(const fs::path&)> before_load;
  // How one plugin directory is loaded; unset = load_plugin(dir, source, load).  The server
  // loads with a deadline (bounded_load.hpp).
  std::function<result<loaded_plugin>(const fs::path& dir, std::string_view source, const load_options&)> load_one;
};

struct discovery_result {
  std::vector<loaded_plugin> plugins;  // merged: npm first, then local; a local plugin replaces an npm one of the same name
  std::vector<discovery_error> errors;
  std::vector<std::string> warnings;   // e.g. "local plugin x overrides the npm package"
};

discovery_result discover(const discovery_input& in);

// Two tools can never share an MCP name: a plugin any of whose tools (as <plugin>_<tool> or
// <plugin>__<tool>) would take a name a built-in tool or an earlier plugin's tool already
// has is moved from `found.plugins` to `found.errors`, naming the tool and its owner; the
// other plugins stay.  discover() ends with this.
void refuse_tool_name_clashes(discovery_result& found, const std::vector<std::string>& builtin_tool_names);

// The directories `localPluginDirs` contributes: immediate children with a package.json that
// has an object "opentabs" field, sorted by name.  Errors for unreadable parents.
struct expanded_dirs {
  std::vector<fs::path> plugin_dirs;
  std::vector<discovery_error> errors;
};
expanded_dirs expand_local_plugin_dirs(const discovery_input& in);

// A localPlugins/localPluginDirs entry as a path: `~/x` → home/x, absolute as is, other
// relative paths against the config dir.  Package names (no ./ ../ / ~/ prefix) are
// returned as-is in `package`.
struct resolved_specifier {
  std::optional<fs::path> path;
  std::string package;
};
resolved_specifier resolve_specifier(const std::string& spec, const fs::path& home, const fs::path& config_dir);

// True when `dir` (resolved through symlinks) lies under home, tmpdir, cwd or one of the
// additional directories.
bool is_under_allowed_root(const fs::path& dir, const discovery_input& in);

// True when the environment asks to skip npm discovery.
bool npm_discovery_disabled_by_env();

}  // namespace opentabs::plugins
