// Which server → extension request methods the connected extension handles.  The original
// OpenTabs 0.0.115 extension drops every method outside its allow-list without an answer
// (spec §3.10), so a request it does not know would only end in the 30 s timeout.  Our
// extension announces its methods right after the socket opens with the notification
//   {"jsonrpc":"2.0","method":"extension.capabilities",
//    "params":{"methods":["browser.snapshot",…],"extensionVersion":"0.1.0"}}
// (the original server ignores unknown notifications).  A connection that never announces
// is taken to be the original extension and gets its fixed method set.
#pragma once

#include <set>
#include <string>
#include <string_view>

#include "json/json.hpp"
#include "util/result.hpp"

namespace opentabs::app {

inline constexpr std::string_view kCapabilitiesMethod = "extension.capabilities";

// The request methods of the OpenTabs 0.0.115 extension's dispatch table (spec §3.10, §5):
// sync.full, plugin.update, plugin.uninstall, tool.dispatch, the 67 browser.* methods and
// the 7 extension.* methods.
const std::set<std::string, std::less<>>& original_extension_methods();

struct extension_capabilities {
  bool announced = false;       // false: the original extension's set applies
  std::set<std::string, std::less<>> methods;
  std::string extension_version;  // as announced, else empty

  bool supports(std::string_view method) const;
};

// Parses the params of an extension.capabilities notification.  At most 1024 methods of at
// most 128 characters each; errors say what was wrong.
result<extension_capabilities> parse_capabilities(const json::object& params);

// "browser_snapshot" for browser.snapshot (the MCP tool that uses the method), else the method.
std::string tool_of_method(std::string_view method);

// "the connected extension does not support browser_snapshot; load the opentabs extension
// from <install_hint>".
std::string unsupported_method_message(std::string_view method, std::string_view install_hint);

}  // namespace opentabs::app
