// config.json schema v3 (spec §2.1) as a typed struct, and the lenient parser that turns a
// JSON object into it.  Parsing never throws: a file that is not JSON at all is an error
// value (the caller keeps its last good config), while individual bad values inside a valid
// file are dropped with a warning, as the original server does, so one typo cannot take the
// whole configuration down.  Warnings are returned for the caller to log.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/json.hpp"
#include "tools/tool.hpp"
#include "util/result.hpp"

namespace opentabs::config {

namespace fs = std::filesystem;

inline constexpr int kCurrentConfigVersion = 3;
inline constexpr std::size_t kMaxConfigBytes = 1024 * 1024;
inline constexpr std::int64_t kDefaultUpdateCheckIntervalMinutes = 30;
// Plugin key under which the built-in browser tools keep their permissions.
inline constexpr std::string_view kBrowserPermissionKey = "browser";

// The keys the server itself reads; any other top-level key gets an "Unknown config key"
// warning (the CLI's `port`, `telemetry`, ... included, as in the original).
const std::vector<std::string>& server_known_keys();

// How plugin tools are named in tools/list and the audit log (`toolNames`): the seed's
// `<plugin>_<tool>` (default) or the original server's `<plugin>__<tool>`.  Both spellings
// are callable either way.
enum class tool_name_style { single_underscore, double_underscore };
std::string_view to_string(tool_name_style s);
std::optional<tool_name_style> parse_tool_name_style(std::string_view text);

// permissions.<plugin>
struct plugin_permissions {
  std::optional<tools::permission> permission;
  std::map<std::string, tools::permission> tools;  // override key → level
  std::optional<std::string> reviewed_version;
};

// The typed content of config.json.  (Named config_file rather than config so that
// `using namespace opentabs::config` does not make the name ambiguous.)
struct config_file {
  int version = kCurrentConfigVersion;
  std::vector<std::string> local_plugins;
  std::vector<std::string> local_plugin_dirs;
  std::map<std::string, plugin_permissions> permissions;
  std::map<std::string, json::object> settings;  // plugin → { key: value }
  std::vector<std::string> additional_allowed_directories;
  // Where tools save files a call names (`outputDirectory`); unset = <config dir>/output.
  std::optional<std::string> output_directory;
  std::int64_t update_check_interval_minutes = kDefaultUpdateCheckIntervalMinutes;
  tool_name_style tool_names = tool_name_style::single_underscore;
  // `hideDisabledTools`: leave tools whose permission is off out of tools/list (default:
  // listed with a "[Disabled] " prefix, as the original server does).
  bool hide_disabled_tools = false;
  // `browserToolGroups`: a permission for every built-in browser tool of a group ("Network",
  // "Emulation", ... as the catalog names them); permissions.browser.tools entries still win.
  std::map<std::string, tools::permission, std::less<>> browser_tool_groups;
  // Read by the CLI only (the server warns about them as unknown keys).
  std::optional<int> port;
  std::optional<bool> telemetry;
  std::optional<bool> telemetry_notice_shown;
};

// The object written when config.json is missing, keys in the original's order.
json::object default_config_object();
// Its exact file content (two-space indentation, trailing newline).
std::string default_config_text();

// Serialises a config object the way every writer does (pretty, trailing newline).
std::string format_config_text(const json::object& root);

// Parses config.json text into an object.  Errors name the file and where it broke:
// "parse_error" (with line/column), "too_large" (over kMaxConfigBytes), "not_object".
result<json::object> parse_config_text(std::string_view text, const fs::path& path);

// The typed view of an object that parse_config_text() produced (after migrations).
// Bad values are dropped and reported in `warnings`; unknown keys are reported with a
// did-you-mean suggestion.  `path` only labels the warnings.
config_file config_from_object(const json::object& root, const fs::path& path, std::vector<std::string>& warnings);

// The schema version an object declares: a positive integer, else 1 (original rule).
int declared_version(const json::object& root);

}  // namespace opentabs::config
