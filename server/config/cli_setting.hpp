// `opentabs config set <key> <value>` (spec §1.3) as one pure edit of the config object:
//   tool-permission.<plugin>.<tool>  off|ask|auto   (an explicit per-tool override)
//   plugin-permission.<plugin>       off|ask|auto   (off deletes the plugin's entry)
//   setting.<plugin>.<key>           <value>        ('' removes the setting)
//   port                             1..65535
//   localPlugins.add|remove          <path>
//   allowedDirectories.add|remove    <path>         (additionalAllowedDirectories)
// Bad keys and values come back as errors that say what was wrong and what is accepted,
// with a did-you-mean for mistyped keys.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "json/json.hpp"
#include "util/result.hpp"

namespace opentabs::config {

namespace fs = std::filesystem;

// Where relative paths given on the command line are resolved, and how stored paths are
// compared ("~/x" and relative entries, as the plugin resolver reads them).
struct cli_path_context {
  fs::path cwd;         // relative command-line paths resolve against this
  fs::path home;        // "~/" expands to this; paths under it are stored as "~/..."
  fs::path config_dir;  // relative stored entries resolve against this
};

// Applies one setting.  On success returns a one-line description of what happened
// ("plugin-permission.slack = auto", "Already registered: ~/p").  Errors:
// "unknown_key", "invalid_value", "not_found" (removing something that is not there).
result<std::string> apply_cli_setting(json::object& root, std::string_view key, std::string_view value,
                                      const cli_path_context& paths);

// The accepted keys, for help text.
std::string cli_setting_help();

}  // namespace opentabs::config
