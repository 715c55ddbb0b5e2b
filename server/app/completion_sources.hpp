// Where completion/complete finds the values of opentabs' arguments, for prompts and for
// anything else that registers an argument (a resource template's tab id): the open tabs
// with their titles, so typing part of a title completes to the tab's id, the installed
// plugins' names, and the names of the tools offered.  The tabs are those a plugin or a
// WebMCP page reported, and, when browser_list_tabs runs without asking (its permission is
// auto), every tab the extension lists; completion is not audited (a client may ask on
// every keystroke), so it never lists tabs the person would have been asked about.
#pragma once

#include <vector>

#include "app/extension_hub.hpp"
#include "app/plugin_catalog.hpp"
#include "app/webmcp_directory.hpp"
#include "mcp/completion.hpp"
#include "tools/tool_service.hpp"

namespace opentabs::app {

class completion_sources {
 public:
  completion_sources(extension_hub& hub, const plugin_catalog& catalog, const webmcp_directory& webmcp, const tools::tool_service& tools)
      : hub_(hub), catalog_(catalog), webmcp_(webmcp), tools_(tools) {}

  // Open tabs opentabs was told of: value the tab id, label "<title> <url>".
  std::vector<mcp::completion_candidate> tabs() const;
  // Those and, when listing tabs needs no approval, every tab the extension lists.
  net::awaitable<std::vector<mcp::completion_candidate>> all_tabs() const;
  std::vector<mcp::completion_candidate> plugins() const;
  std::vector<mcp::completion_candidate> tool_names() const;
  // The plugins whose tabs include `tab_id`, as the extension reported them.
  std::vector<std::string> plugins_on_tab(std::int64_t tab_id) const;

  // The same as completion_source functions (they read the state when called).
  mcp::completion_source tabs_source() const;
  mcp::completion_source plugins_source() const;
  mcp::completion_source tools_source() const;

 private:
  extension_hub& hub_;
  const plugin_catalog& catalog_;
  const webmcp_directory& webmcp_;
  const tools::tool_service& tools_;
};

}  // namespace opentabs::app
