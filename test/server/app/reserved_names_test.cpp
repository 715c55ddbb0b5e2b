// Issue 13 item 11: every prefix the server's own tools use is a reserved plugin name, so no
// plugin's <plugin>_<tool> can ever duplicate a built-in, platform, gateway or WebMCP tool.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "app/platform_tools.hpp"
#include "app/webmcp_naming.hpp"
#include "mcp/gateway_tools.hpp"
#include "plugins/naming.hpp"
#include "tools/browser_catalog.hpp"

using namespace opentabs;

TEST_CASE("the prefix of every built-in tool name is a reserved plugin name") {
  std::set<std::string> names;
  for (const auto& t : tools::browser_tool_catalog()) names.insert(t.name);
  for (const auto& t : app::platform_tool_defs()) names.insert(t.name);
  names.insert(std::string(mcp::gateway::list_tools_tool));
  names.insert(std::string(mcp::gateway::call_tool));
  names.insert(app::webmcp::mcp_tool_name(app::webmcp::site_slug("example.com"), "search"));
  REQUIRE(names.size() > 80);
  std::set<std::string> prefixes;
  for (const auto& n : names) {
    auto prefix = n.substr(0, n.find('_'));
    prefixes.insert(prefix);
    CHECK_MESSAGE(plugins::is_reserved_plugin_name(prefix), "tool " << n << " uses the unreserved prefix " << prefix);
  }
  CHECK(prefixes == std::set<std::string>{"browser", "extension", "opentabs", "plugin", "webmcp"});
}
