// Plugin and tool naming (spec §4.1): npm package name → plugin name, the NAME rule,
// reserved names, and MCP tool names.  The canonical tool name is the single-underscore
// form `<plugin>_<tool>` (OpenTabs docs); the double-underscore form `<plugin>__<tool>`
// the v0.0.115 server uses is accepted on lookup.  Plugin names never contain '_', so the
// first '_' of a tool name always ends the plugin part.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "util/result.hpp"

namespace opentabs::plugins {

inline constexpr std::string_view package_prefix = "opentabs-plugin-";

// ^[a-z0-9]+(-[a-z0-9]+)*$ and at most 64 characters.
bool is_valid_plugin_name(std::string_view name) noexcept;

// system, browser, opentabs, extension, config, plugin, tool, mcp, webmcp: the built-in tool
// name prefixes and names kept for the server.
bool is_reserved_plugin_name(std::string_view name) noexcept;
const std::vector<std::string>& reserved_plugin_names();

// "opentabs-plugin-jira" → "jira"; "@opentabs-dev/opentabs-plugin-x" → "x";
// "@myorg/opentabs-plugin-jira" → "myorg-jira".  Error code "invalid_plugin_name" with a
// message naming the package and the broken rule.
result<std::string> plugin_name_from_package(std::string_view package_name);

// A tool's name inside its plugin: [A-Za-z0-9][A-Za-z0-9_-]{0,63}.
bool is_valid_tool_base_name(std::string_view name) noexcept;

// "<plugin>_<tool>"
std::string canonical_tool_name(std::string_view plugin, std::string_view tool);

struct tool_name_parts {
  std::string plugin;
  std::string tool;
  bool operator==(const tool_name_parts&) const = default;
};

// The readings of an MCP tool name, most specific first: for "a__b" → {a, b} (the
// double-underscore form) then {a, _b}; for "a_b_c" → {a, b_c}.  Empty when the name has
// no '_' or the plugin part is not a valid plugin name.  The registry takes the first
// reading that names an existing tool.
std::vector<tool_name_parts> tool_name_readings(std::string_view name);

}  // namespace opentabs::plugins
