// What a tool is, independent of where it comes from (plugin, built-in browser tool,
// platform tool, WebMCP page tool).  The registry holds these; MCP, REST and the gateway
// list and call tools only through this vocabulary.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "json/json.hpp"

namespace opentabs::schema {
class lazy_validator;  // server/schema/lazy_validator.hpp
}

namespace opentabs::tools {

enum class permission { off, ask, auto_ };

inline std::string_view to_string(permission p) {
  switch (p) {
    case permission::off: return "off";
    case permission::ask: return "ask";
    case permission::auto_: return "auto";
  }
  return "off";
}

inline std::optional<permission> parse_permission(std::string_view s) {
  if (s == "off") return permission::off;
  if (s == "ask") return permission::ask;
  if (s == "auto") return permission::auto_;
  return std::nullopt;
}

enum class tool_kind {
  plugin,    // a site plugin's tool, dispatched as tool.dispatch to the plugin's adapter
  browser,   // a built-in browser_* / extension_* tool, forwarded as a browser.* request
  platform,  // served by the server itself (plugin_inspect, plugin_mark_reviewed, ...)
  webmcp,    // a tool a web page published through WebMCP
};

struct tool_def {
  std::string name;          // canonical MCP name: "browser_list_tabs", "slack_send_message"
  std::string plugin;        // owning plugin name, "browser" or "platform"
  std::string base_name;     // name inside its plugin ("send_message"); browser tools: full name
  tool_kind kind = tool_kind::browser;
  std::string display_name;
  std::string description;   // without any permission prefix
  std::string summary;
  std::string icon;
  std::string group;
  json::object input_schema;  // the schema clients see (plugin tools: with injected tabId/instance)
  // Validates the arguments a caller sent, after injected platform arguments were removed;
  // compiled on the tool's first call, and a schema that does not compile makes the tool
  // uncallable (get() says why).  Null for a WebMCP tool whose page schema has not been
  // compiled yet (webmcp_bridge compiles it on the blocking pool) or was refused.
  std::shared_ptr<const schema::lazy_validator> validator;
  std::string method;        // browser tools: the extension method ("browser.listTabs")
  bool fan_out = false;      // browser tools marked ★ in the spec: sent to every connection
};

}  // namespace opentabs::tools
