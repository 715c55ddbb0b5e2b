// The catalog of built-in browser tools (spec §5): the 76 OpenTabs browser tools
// (extension diagnostics, tabs and groups, page inspection, storage and cookies,
// interaction, network, emulation, CSS, windows, downloads, history, bookmarks, sessions,
// site data, notifications, plugin_list_tabs, plugin_analyze_site) plus browser_snapshot.
// All are owned by the pseudo-plugin "browser", so permissions.browser and its per-tool
// overrides govern them.  The catalog is data: one embedded JSON document, parsed and
// compiled into tool_def values once, on first use.
#pragma once

#include <string_view>
#include <vector>

#include "json/json.hpp"
#include "tools/tool.hpp"

namespace opentabs::tools {

// Every browser tool in tools/list order.  The vector lives for the whole program.
// A tool whose `method` is empty is served by the server itself (server/app/browser_tools):
// browser_export_har, plugin_list_tabs, plugin_analyze_site.
const std::vector<tool_def>& browser_tool_catalog();

// The catalog entry named `name`, or nullptr.  Accepts only canonical names.
const tool_def* find_browser_tool(std::string_view name);

// The params forwarded to the extension for a validated call: the arguments with every
// top-level property the schema gives a `default` filled in when the caller left it out
// (spec §5: e.g. browser_wait_for_element fills timeout 10000 and visible false).
json::object with_schema_defaults(const tool_def& tool, json::object arguments);

}  // namespace opentabs::tools
