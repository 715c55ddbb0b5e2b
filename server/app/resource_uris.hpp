// The server's own MCP resources by URI, sans I/O: what each opentabs:// URI names, the
// fixed entries of the listing, the tab templates, and how the tools' answers become a
// listing entry or a resource's contents.  server_resources does the I/O.
//
//   opentabs://health                 the server's health (/health's payload)
//   opentabs://audit                  the newest audit log entries
//   opentabs://plugins/{name}         a plugin: tools, url patterns, permissions, version
//   opentabs://tabs/{tabId}           an open tab: title, URL, the plugin and WebMCP tools it has
//   opentabs://tabs/{tabId}/text      its readable text (browser_get_tab_content)
//   opentabs://tabs/{tabId}/screenshot  its viewport as a PNG (browser_screenshot_tab)
//   opentabs://tabs/{tabId}/snapshot  its accessibility snapshot (browser_snapshot)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/json.hpp"
#include "tools/resource_service.hpp"
#include "tools/tool_service.hpp"
#include "util/result.hpp"

namespace opentabs::app {

enum class resource_kind { health, audit, plugin, tab, tab_text, tab_screenshot, tab_snapshot };

struct resource_ref {
  resource_kind kind = resource_kind::health;
  std::string plugin;       // kind plugin
  std::int64_t tab_id = 0;  // the tab kinds
};

// What `uri` names; nullopt: not one of the server's URIs (or a malformed one: a tab id
// that is not a positive integer, an empty plugin name, an unknown tab view).
std::optional<resource_ref> parse_resource_ref(std::string_view uri);

std::string plugin_uri(std::string_view plugin);
std::string tab_uri(std::int64_t tab_id);

// The browser tool that reads a tab view, and its arguments; nullopt for the other kinds.
struct tab_read {
  std::string tool;
  json::object arguments;
};
std::optional<tab_read> tab_read_for(const resource_ref& ref);

// Health and the audit log: the entries every listing starts with.
std::vector<tools::listed_resource> fixed_resources();
std::vector<tools::listed_template> tab_templates();

// One listing entry per tab browser_list_tabs answered (its JSON array: id, title, url).
// Entries without a numeric id are skipped.
std::vector<tools::listed_resource> tab_resources(const json::array& listed_tabs);

// A browser tool's answer to a tab read as the resource's contents: its text blocks joined
// (the page-content marks they carry stay; of a {content} object only the content), or its
// image as a blob.  A failed call is the
// read's error with the tool's words (not_found when the tool says no such tab).
result<json::array> contents_of(std::string_view uri, const tools::call_result& answer);

}  // namespace opentabs::app
