// The tool registry: tools/list order (plugin, browser, platform, WebMCP), both spellings
// of a plugin tool's name, the WebMCP part kept across a rebuild and replaced on its own,
// the generation that tells caches to refresh, a tool kept alive by a caller across a
// rebuild, and "did you mean" names.
#include "app/tool_registry.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tool_defs.hpp"

using namespace opentabs;
using namespace opentabs::app;

namespace {

tools::tool_def tool(std::string plugin, std::string base, tools::tool_kind kind) {
  return opentabs::app::testing::tool_of_kind(std::move(plugin), std::move(base), kind);
}

std::vector<std::string> names_of(const tool_registry& r) {
  std::vector<std::string> out;
  for (const auto& t : r.all()) out.push_back(t->name);
  return out;
}

}  // namespace

TEST_CASE("tools are listed plugin, browser, platform, then WebMCP; a plugin tool answers to both spellings") {
  const std::vector<tools::tool_def> browser{tool("browser", "browser_list_tabs", tools::tool_kind::browser)};
  tool_registry r;
  r.set_webmcp_tools({tool("shop.example", "webmcp_shop_search", tools::tool_kind::webmcp)});
  r.rebuild({tool("slack", "send", tools::tool_kind::plugin)}, browser, {tool("platform", "plugin_inspect", tools::tool_kind::platform)});
  CHECK(names_of(r) == std::vector<std::string>{"slack_send", "browser_list_tabs", "plugin_inspect", "webmcp_shop_search"});
  CHECK(r.plugin_tool_count() == 1);
  CHECK(r.browser_tool_count() == 1);
  CHECK(r.find("slack_send") == r.find("slack__send"));
  REQUIRE(r.find("slack__send"));
  CHECK(r.find("slack__send")->base_name == "send");
  CHECK(r.find("browser__browser_list_tabs") == nullptr);  // only plugin tools have the second spelling
  CHECK(r.find("browser_list_tabs").get() == &browser[0]);  // the catalog is shared, not copied
}

TEST_CASE("a rebuild keeps the WebMCP tools; replacing them keeps the rest; each change is a new generation") {
  const std::vector<tools::tool_def> browser;
  tool_registry r;
  const auto g0 = r.generation();
  r.rebuild({tool("slack", "send", tools::tool_kind::plugin)}, browser, {});
  r.set_webmcp_tools({tool("a.example", "webmcp_a", tools::tool_kind::webmcp)});
  const auto g1 = r.generation();
  CHECK(g1 > g0);
  auto held = r.find("slack_send");  // a call in flight holds its tool
  r.rebuild({tool("notion", "search", tools::tool_kind::plugin)}, browser, {});
  CHECK(names_of(r) == std::vector<std::string>{"notion_search", "webmcp_a"});
  CHECK(r.find("slack_send") == nullptr);
  REQUIRE(held);
  CHECK(held->name == "slack_send");  // still alive for its caller
  r.set_webmcp_tools({tool("b.example", "webmcp_b", tools::tool_kind::webmcp)});
  CHECK(names_of(r) == std::vector<std::string>{"notion_search", "webmcp_b"});
  CHECK(r.find("webmcp_a") == nullptr);
  CHECK(r.generation() > g1);
  r.set_webmcp_tools({});
  CHECK(names_of(r) == std::vector<std::string>{"notion_search"});
}

TEST_CASE("similar names: the closest first, at most `max`, none when nothing is close") {
  const std::vector<tools::tool_def> browser{tool("browser", "browser_list_tabs", tools::tool_kind::browser),
                                             tool("browser", "browser_close_tab", tools::tool_kind::browser),
                                             tool("browser", "browser_open_tab", tools::tool_kind::browser)};
  tool_registry r;
  r.rebuild({}, browser, {});
  auto close = r.similar_names("browser_list_tab");
  REQUIRE_FALSE(close.empty());
  CHECK(close.front() == "browser_list_tabs");
  CHECK(close.size() <= 3);
  CHECK(r.similar_names("browser_open_tabs", 1) == std::vector<std::string>{"browser_open_tab"});
  CHECK(r.similar_names("zzzz").empty());
}
