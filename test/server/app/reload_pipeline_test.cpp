// The reload pipeline's plain parts: the names no plugin may take, and the spelling of a
// plugin tool's name under each toolNames style.
#include "app/reload_pipeline.hpp"

#include <doctest/doctest.h>

#include <algorithm>

#include "mcp/gateway_tools.hpp"
#include "tools/browser_catalog.hpp"

using namespace opentabs;
using namespace opentabs::app;

TEST_CASE("builtin_tool_names holds every browser tool, the platform tools and the gateway's two") {
  auto names = builtin_tool_names();
  auto has = [&](std::string_view n) { return std::find(names.begin(), names.end(), n) != names.end(); };
  for (const auto& t : tools::browser_tool_catalog()) CHECK(has(t.name));
  CHECK(has(mcp::gateway::list_tools_tool));
  CHECK(has(mcp::gateway::call_tool));
  CHECK(names.size() > tools::browser_tool_catalog().size() + 2);
}

TEST_CASE("listed_tool_name follows the toolNames style") {
  CHECK(listed_tool_name("slack", "send_message", config::tool_name_style::single_underscore) == "slack_send_message");
  CHECK(listed_tool_name("slack", "send_message", config::tool_name_style::double_underscore) == "slack__send_message");
}
