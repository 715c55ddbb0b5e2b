// extension_capabilities: the original extension's fixed method set, announcements, and the
// message for a method the connected extension lacks.
#include "app/extension_capabilities.hpp"

#include <doctest/doctest.h>

#include "tools/browser_catalog.hpp"

using namespace opentabs;
using namespace opentabs::app;

// Tools this project adds beyond the OpenTabs 0.0.115 catalog: the original extension has no
// method for them, so they need an extension that announces them.
static bool is_extra_tool(std::string_view name) {
  for (std::string_view extra : {"browser_snapshot", "browser_go_back", "browser_go_forward", "browser_reload_tab",
                                 "browser_wait_for_text", "browser_fill_form", "browser_drag_element",
                                 "browser_upload_file", "browser_get_network_request",
                                 // trusted input, waits and search
                                 "browser_wait", "browser_mouse", "browser_find", "browser_set_extra_headers", "browser_throttle_cpu"})
    if (name == extra) return true;
  return false;
}

TEST_CASE("the original set: every catalog method except our extras, plus the protocol core") {
  const auto& original = original_extension_methods();
  std::size_t browser = 0;
  for (const auto& m : original) browser += m.starts_with("browser.") ? 1 : 0;
  CHECK(browser == 67);
  for (const auto& t : tools::browser_tool_catalog()) {
    if (t.method.empty()) continue;
    CAPTURE(t.name);
    CHECK(original.contains(t.method) == !is_extra_tool(t.name));
  }
  for (const char* m : {"sync.full", "plugin.update", "plugin.uninstall", "tool.dispatch", "extension.getTabState"})
    CHECK(original.contains(m));
  CHECK_FALSE(original.contains("webmcp.callTool"));
  extension_capabilities unannounced;
  CHECK(unannounced.supports("browser.listTabs"));
  CHECK_FALSE(unannounced.supports("browser.snapshot"));
}

TEST_CASE("an announcement replaces the set; bad ones are errors naming the problem") {
  auto caps = parse_capabilities(json::object{{"methods", json::array{"browser.snapshot", "webmcp.callTool"}}, {"extensionVersion", "0.1.0"}});
  REQUIRE(caps);
  CHECK(caps->supports("browser.snapshot"));
  CHECK(caps->supports("webmcp.callTool"));
  CHECK_FALSE(caps->supports("browser.listTabs"));
  CHECK(caps->extension_version == "0.1.0");
  auto missing = parse_capabilities(json::object{});
  REQUIRE_FALSE(missing);
  CHECK(missing.err().message.find("\"methods\"") != std::string::npos);
  CHECK_FALSE(parse_capabilities(json::object{{"methods", json::array{1}}}));
  CHECK_FALSE(parse_capabilities(json::object{{"methods", json::array{""}}}));
  json::array many;
  for (int i = 0; i < 1025; ++i) many.push_back(json::str("m" + std::to_string(i)));
  CHECK_FALSE(parse_capabilities(json::object{{"methods", many}}));
}

TEST_CASE("the message names the tool and where to load ours") {
  CHECK(unsupported_method_message("browser.snapshot", "/home/u/.opentabs/extension") ==
        "the connected extension does not support browser_snapshot; load the opentabs extension from /home/u/.opentabs/extension");
  CHECK(tool_of_method("webmcp.callTool").find("WebMCP") != std::string::npos);
  CHECK(tool_of_method("x.y") == "x.y");
}
