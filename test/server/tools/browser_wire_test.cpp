// Tests for the browser wire contract translations (extension/PROTOCOL.md): every friendlier
// argument shape the catalog accepts becomes exactly the OpenTabs wire shape, wire shapes
// pass through unchanged, and the catalog schemas accept the OpenTabs argument shapes.
#include "tools/browser_wire.hpp"

#include <doctest/doctest.h>

#include "schema/lazy_validator.hpp"
#include "schema/validator.hpp"
#include "tools/browser_catalog.hpp"

using namespace opentabs;

namespace {

json::object args(std::string_view text) { return json::parse_object(text).value(); }

// The params the server sends for `tool` called with `arguments` (defaults, then wire shape).
std::string wire(std::string_view tool, std::string_view arguments) {
  const auto* t = tools::find_browser_tool(tool);
  REQUIRE(t != nullptr);
  REQUIRE(t->validator->get().value()->validate(args(arguments), tool).ok());
  return json::dump(tools::to_wire_params(tool, tools::with_schema_defaults(*t, args(arguments))));
}

bool accepts(std::string_view tool, std::string_view arguments) {
  const auto* t = tools::find_browser_tool(tool);
  REQUIRE(t != nullptr);
  return t->validator->get().value()->validate(args(arguments), tool).ok();
}

}  // namespace

TEST_CASE("press_key: a list of modifier names becomes {ctrl,shift,alt,meta} booleans") {
  CHECK(wire("browser_press_key", R"({"tabId":1,"key":"a","modifiers":["Control","Shift"]})") ==
        R"({"tabId":1,"key":"a","modifiers":{"ctrl":true,"shift":true}})");
  CHECK(wire("browser_press_key", R"({"tabId":1,"key":"a","modifiers":["Alt","Meta"]})") ==
        R"({"tabId":1,"key":"a","modifiers":{"alt":true,"meta":true}})");
  CHECK(wire("browser_press_key", R"({"tabId":1,"key":"Enter","modifiers":[]})") == R"({"tabId":1,"key":"Enter"})");
  // The wire shape itself passes through as given.
  CHECK(wire("browser_press_key", R"({"tabId":1,"key":"k","modifiers":{"ctrl":true}})") ==
        R"({"tabId":1,"key":"k","modifiers":{"ctrl":true}})");
  CHECK_FALSE(accepts("browser_press_key", R"({"tabId":1,"key":"k","modifiers":{"control":true}})"));
  CHECK_FALSE(accepts("browser_press_key", R"({"tabId":1,"key":"k","modifiers":{"ctrl":"yes"}})"));
  CHECK_FALSE(accepts("browser_press_key", R"({"tabId":1,"key":"k","modifiers":"Control"})"));
}

TEST_CASE("scroll: position top/bottom becomes an {x,y} offset") {
  CHECK(wire("browser_scroll", R"({"tabId":1,"position":"top"})") == R"({"tabId":1,"position":{"y":0}})");
  CHECK(wire("browser_scroll", R"({"tabId":1,"position":"bottom"})") == R"({"tabId":1,"position":{"y":1000000000}})");
  CHECK(wire("browser_scroll", R"({"tabId":1,"position":{"x":5,"y":700}})") == R"({"tabId":1,"position":{"x":5,"y":700}})");
  CHECK(wire("browser_scroll", R"({"tabId":1,"direction":"down","distance":40})") == R"({"tabId":1,"direction":"down","distance":40})");
  CHECK_FALSE(accepts("browser_scroll", R"({"tabId":1,"position":"middle"})"));
  CHECK_FALSE(accepts("browser_scroll", R"({"tabId":1,"position":{"z":1}})"));
}

TEST_CASE("search_history: numeric times become ISO strings; ISO strings pass through") {
  CHECK(wire("browser_search_history", R"({"query":"x","startTime":1704067200000,"endTime":1704067200123})") ==
        R"({"query":"x","startTime":"2024-01-01T00:00:00.000Z","endTime":"2024-01-01T00:00:00.123Z","maxResults":100})");
  CHECK(wire("browser_search_history", R"({"query":"","startTime":"2024-01-01T00:00:00Z"})") ==
        R"({"query":"","startTime":"2024-01-01T00:00:00Z","maxResults":100})");
}

TEST_CASE("force_pseudo_state: bare names get their colon, without duplicates") {
  CHECK(wire("browser_force_pseudo_state", R"({"tabId":1,"selector":"#b","pseudoClasses":["hover","focus-visible"]})") ==
        R"({"tabId":1,"selector":"#b","pseudoClasses":[":hover",":focus-visible"]})");
  CHECK(wire("browser_force_pseudo_state", R"({"tabId":1,"selector":"#b","pseudoClasses":[":hover","hover"]})") ==
        R"({"tabId":1,"selector":"#b","pseudoClasses":[":hover"]})");
  CHECK(wire("browser_force_pseudo_state", R"({"tabId":1,"selector":"#b","pseudoClasses":[]})") ==
        R"({"tabId":1,"selector":"#b","pseudoClasses":[]})");
  CHECK_FALSE(accepts("browser_force_pseudo_state", R"({"tabId":1,"selector":"#b","pseudoClasses":[":target"]})"));
}

TEST_CASE("throttle_network: OpenTabs presets pass; fast-3g becomes explicit values") {
  CHECK(wire("browser_throttle_network", R"({"tabId":1,"preset":"3g"})") == R"({"tabId":1,"preset":"3g"})");
  CHECK(wire("browser_throttle_network", R"({"tabId":1,"preset":"wifi"})") == R"({"tabId":1,"preset":"wifi"})");
  CHECK(wire("browser_throttle_network", R"({"tabId":1,"preset":"fast-3g"})") ==
        R"({"tabId":1,"latency":563,"downloadThroughput":180000,"uploadThroughput":84375})");
}

TEST_CASE("extension_get_logs: level and source 'all' are left out") {
  CHECK(wire("extension_get_logs", R"({"level":"all","source":"all"})") == R"({"limit":100})");
  CHECK(wire("extension_get_logs", R"({"level":"warn","source":"offscreen"})") == R"({"level":"warn","source":"offscreen","limit":100})");
  CHECK(accepts("extension_get_logs", R"({"level":"log"})"));
}

TEST_CASE("tab groups: the first tab is also sent as tabId") {
  CHECK(wire("browser_add_tabs_to_group", R"({"groupId":3,"tabIds":[7,8]})") == R"({"groupId":3,"tabIds":[7,8],"tabId":7})");
  CHECK(wire("browser_create_tab_group", R"({"tabIds":[9],"title":"t"})") == R"({"tabIds":[9],"title":"t","tabId":9})");
}

TEST_CASE("get_tab_content sends selector body by default; wait_for_element keeps within the dispatch timeout") {
  CHECK(wire("browser_get_tab_content", R"({"tabId":1})") == R"({"tabId":1,"selector":"body","maxLength":50000})");
  CHECK(wire("browser_wait_for_element", R"({"tabId":1,"selector":"#x","timeout":60000})") ==
        R"({"tabId":1,"selector":"#x","timeout":25000,"visible":false})");
  CHECK(wire("browser_wait_for_element", R"({"tabId":1,"selector":"#x","timeout":50})") ==
        R"({"tabId":1,"selector":"#x","timeout":50,"visible":false})");
}

TEST_CASE("the twelve OpenTabs argument shapes our catalog used to refuse are accepted") {
  CHECK(accepts("browser_press_key", R"({"tabId":1,"key":"k","modifiers":{"ctrl":true}})"));
  CHECK(accepts("browser_scroll", R"({"tabId":1,"position":{"x":0,"y":500}})"));
  CHECK(accepts("browser_search_history", R"({"query":"","startTime":"2024-01-01T00:00:00Z"})"));
  CHECK(accepts("browser_force_pseudo_state", R"({"tabId":1,"selector":"a","pseudoClasses":[":hover"]})"));
  CHECK(accepts("browser_throttle_network", R"({"tabId":1,"preset":"3g"})"));
  CHECK(accepts("browser_get_console_logs", R"({"tabId":1,"level":"all"})"));
  CHECK(accepts("extension_get_logs", R"({"level":"all"})"));
  CHECK(accepts("extension_get_logs", R"({"source":"all"})"));
  CHECK(accepts("browser_wait_for_element", R"({"tabId":1,"selector":"a","timeout":30000})"));
  CHECK(accepts("browser_emulate_device", R"({"tabId":1,"width":400,"height":800,"deviceScaleFactor":0})"));
  CHECK(accepts("browser_create_window", R"({"width":200000})"));
  CHECK(accepts("plugin_analyze_site", R"({"url":"https://example.com","waitSeconds":25})"));
}

TEST_CASE("tools without translations are sent as validated") {
  CHECK(tools::to_wire_params("browser_close_tab", args(R"({"tabId":4})")) == args(R"({"tabId":4})"));
}
