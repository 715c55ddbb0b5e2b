// Tests for the built-in browser tool catalog: completeness against spec §5, schema shape,
// method naming, fan-out marks, default filling and that the validators really check.
#include "tools/browser_catalog.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <regex>
#include <set>
#include <string>

#include "schema/lazy_validator.hpp"
#include "schema/validator.hpp"

using namespace opentabs;
using opentabs::tools::browser_tool_catalog;
using opentabs::tools::find_browser_tool;

namespace {

// Spec §5, in order: 74 extension/browser tools + plugin_list_tabs + plugin_analyze_site,
// plus our browser_snapshot.
const std::set<std::string> spec_names = {
    "extension_reload", "extension_get_state", "extension_get_logs", "extension_get_side_panel",
    "extension_check_adapter", "extension_force_reconnect",
    "browser_list_tabs", "browser_open_tab", "browser_close_tab", "browser_navigate_tab",
    "browser_focus_tab", "browser_get_tab_info", "browser_list_tab_groups", "browser_create_tab_group",
    "browser_add_tabs_to_group", "browser_remove_tabs_from_group", "browser_update_tab_group",
    "browser_list_tabs_in_group",
    "browser_execute_script", "browser_screenshot_tab", "browser_get_tab_content", "browser_get_page_html",
    "browser_wait_for_element", "browser_query_elements", "browser_get_console_logs",
    "browser_clear_console_logs", "browser_list_resources", "browser_get_resource_content",
    "browser_get_storage", "browser_get_cookies", "browser_set_cookie", "browser_delete_cookies",
    "browser_click_element", "browser_type_text", "browser_select_option", "browser_press_key",
    "browser_scroll", "browser_hover_element", "browser_handle_dialog",
    "browser_enable_network_capture", "browser_get_network_requests", "browser_get_websocket_frames",
    "browser_export_har", "browser_disable_network_capture", "browser_intercept_requests",
    "browser_fulfill_request", "browser_fail_request", "browser_stop_intercepting",
    "browser_throttle_network", "browser_clear_network_throttle",
    "browser_notify",
    "browser_emulate_device", "browser_set_geolocation", "browser_set_media_features",
    "browser_emulate_vision_deficiency", "browser_clear_emulation",
    "browser_get_element_styles", "browser_force_pseudo_state", "browser_get_css_coverage",
    "browser_list_windows", "browser_create_window", "browser_update_window", "browser_close_window",
    "browser_download_file", "browser_list_downloads", "browser_get_download_status",
    "browser_search_history", "browser_get_visits", "browser_search_bookmarks", "browser_create_bookmark",
    "browser_list_bookmark_tree", "browser_get_recently_closed", "browser_restore_session",
    "browser_clear_site_data",
    "plugin_list_tabs", "plugin_analyze_site",
};

json::object args(std::string_view text) { return json::parse_object(text).value(); }

bool accepts(std::string_view tool, std::string_view arguments) {
  const auto* t = find_browser_tool(tool);
  REQUIRE(t != nullptr);
  REQUIRE(t->validator != nullptr);
  REQUIRE(t->validator->get().ok());
  return t->validator->get().value()->validate(args(arguments), tool).ok();
}

}  // namespace

TEST_CASE("catalog holds the 76 spec tools plus browser_snapshot and the issue-15 actions, each once") {
  const auto& catalog = browser_tool_catalog();
  CHECK(spec_names.size() == 76);
  CHECK(catalog.size() == 91);
  std::set<std::string> names;
  for (const auto& t : catalog) CHECK_MESSAGE(names.insert(t.name).second, "duplicate ", t.name);
  for (const auto& n : spec_names) CHECK_MESSAGE(names.count(n) == 1, "missing ", n);
  CHECK(names.count("browser_snapshot") == 1);
}

TEST_CASE("every tool is owned by the browser pseudo-plugin and fully described") {
  for (const auto& t : browser_tool_catalog()) {
    INFO(t.name);
    CHECK(t.plugin == "browser");
    CHECK(t.base_name == t.name);
    CHECK(t.kind == tools::tool_kind::browser);
    CHECK(!t.description.empty());
    CHECK(!t.summary.empty());
    CHECK(!t.icon.empty());
    CHECK(!t.group.empty());
    CHECK(t.validator != nullptr);
  }
}

TEST_CASE("every input schema compiles (the server compiles each on the tool's first call)") {
  for (const auto& t : browser_tool_catalog()) {
    INFO(t.name);
    REQUIRE(t.validator != nullptr);
    const auto& compiled = t.validator->get();
    CHECK_MESSAGE(compiled.ok(), (compiled.ok() ? std::string() : compiled.err().message));
    CHECK(t.validator->compiled());
  }
}

TEST_CASE("every listed schema is an object whose required names are properties, lean and without catalog markers") {
  for (const auto& t : browser_tool_catalog()) {
    INFO(t.name);
    const auto& s = t.input_schema;
    REQUIRE(json::get_string(s, "type") != nullptr);
    CHECK(*json::get_string(s, "type") == "object");
    // Bounds, closedness and defaults are the validator's business, not the listing's.
    const std::string listed = json::dump(s);
    for (const char* kept_out : {"\"additionalProperties\":false", "\"minLength\"", "\"maximum\"", "\"pattern\"", "\"default\"", "\"listed\"", "\"$ref\""})
      CHECK_MESSAGE(listed.find(kept_out) == std::string::npos, kept_out);
    const auto* props = json::get_object(s, "properties");
    REQUIRE(props != nullptr);
    if (const auto* req = json::get_array(s, "required")) {
      for (const auto& r : *req) CHECK(props->contains(r.as_string()));
    }
    for (const auto& [name, p] : *props) {
      REQUIRE(p.is_object());
      CHECK_MESSAGE(!p.as_object().contains("$ref"), name);  // def references were resolved
      // A type, or alternatives that each have one (OpenTabs shapes beside ours, browser_wire).
      if (const auto* alternatives = json::get_array(p.as_object(), "anyOf")) {
        for (const auto& a : *alternatives) {
          const bool typed = a.is_object() && a.as_object().contains("type");
          CHECK_MESSAGE(typed, name);
        }
      } else {
        CHECK_MESSAGE(p.as_object().contains("type"), name);
      }
    }
  }
}

TEST_CASE("methods are browser.<camelName> / extension.<camelName>, server-side tools have none") {
  const std::regex well_formed("^(browser|extension)\\.[a-z][A-Za-z]+$");
  const std::set<std::string> server_side = {"browser_export_har", "browser_save_pdf", "plugin_list_tabs", "plugin_analyze_site"};
  for (const auto& t : browser_tool_catalog()) {
    INFO(t.name);
    if (server_side.count(t.name)) {
      CHECK(t.method.empty());
      continue;
    }
    CHECK(std::regex_match(t.method, well_formed));
  }
  CHECK(find_browser_tool("browser_list_tab_groups")->method == "browser.listTabGroups");
  CHECK(find_browser_tool("browser_get_css_coverage")->method == "browser.getCssCoverage");
  CHECK(find_browser_tool("extension_get_side_panel")->method == "extension.getSidePanel");
  CHECK(find_browser_tool("browser_notify")->method == "browser.showNotification");
  CHECK(find_browser_tool("browser_snapshot")->method == "browser.snapshot");
}

TEST_CASE("fan-out is set exactly on the starred tools") {
  std::set<std::string> fan_out;
  for (const auto& t : browser_tool_catalog())
    if (t.fan_out) fan_out.insert(t.name);
  CHECK(fan_out == std::set<std::string>{"browser_list_tabs", "extension_get_state", "extension_get_logs",
                                         "extension_check_adapter"});
}

TEST_CASE("validators enforce required, types, closed objects and selector-or-ref") {
  CHECK(accepts("browser_list_tabs", "{}"));
  CHECK_FALSE(accepts("browser_list_tabs", R"({"x":1})"));
  CHECK(accepts("browser_click_element", R"({"tabId":3,"selector":"#a"})"));
  CHECK(accepts("browser_click_element", R"({"tabId":3,"ref":"e12@k3f9"})"));
  // A ref carries the tag of the document it came from; a bare number names no document.
  CHECK_FALSE(accepts("browser_click_element", R"({"tabId":3,"ref":"e12"})"));
  CHECK_FALSE(accepts("browser_click_element", R"({"tabId":3,"ref":"e12@K3F9"})"));
  CHECK_FALSE(accepts("browser_click_element", R"({"tabId":3})"));
  CHECK_FALSE(accepts("browser_click_element", R"({"tabId":3,"ref":"button"})"));
  CHECK_FALSE(accepts("browser_click_element", R"({"tabId":0,"selector":"#a"})"));
  CHECK_FALSE(accepts("browser_click_element", R"({"tabId":"3","selector":"#a"})"));
  CHECK(accepts("browser_open_tab", R"({"url":"https://example.com/"})"));
  CHECK_FALSE(accepts("browser_open_tab", R"({"url":"javascript:void 0"})"));
  CHECK_FALSE(accepts("browser_open_tab", R"({"url":"file:///etc/passwd"})"));
  CHECK(accepts("browser_screenshot_tab", R"({"tabId":1,"filePath":"/tmp/x.png"})"));
  // A relative filePath is taken in the output folder; the path rules live in output_file_policy.
  CHECK(accepts("browser_screenshot_tab", R"({"tabId":1,"filePath":"x.png","overwrite":true})"));
  CHECK_FALSE(accepts("browser_screenshot_tab", R"({"tabId":1,"filePath":""})"));
  CHECK_FALSE(accepts("browser_export_har", R"({"tabId":1,"filePath":"a.har","overwrite":"yes"})"));
  CHECK(accepts("browser_set_media_features", R"({"tabId":1,"features":[{"name":"prefers-color-scheme","value":"dark"}]})"));
  CHECK_FALSE(accepts("browser_set_media_features", R"({"tabId":1,"features":[{"name":"a","value":"b","x":1}]})"));
  CHECK(accepts("browser_fulfill_request", R"({"tabId":1,"requestId":"r1","status":200,"headers":{"a":"b"}})"));
  CHECK_FALSE(accepts("browser_fulfill_request", R"({"tabId":1,"requestId":"r1","status":200,"headers":{"a":1}})"));
  CHECK_FALSE(accepts("browser_clear_site_data", R"({"origin":"https://a.com/path"})"));
  CHECK(accepts("browser_clear_site_data", R"({"origin":"http://127.0.0.1:8080"})"));
  // The listing shows modifiers as an object; the validator also takes the list form.
  CHECK(accepts("browser_click_element", R"({"tabId":3,"selector":"#a","modifiers":{"ctrl":true}})"));
  CHECK(accepts("browser_click_element", R"({"tabId":3,"selector":"#a","modifiers":["Shift"]})"));
  CHECK_FALSE(accepts("browser_click_element", R"({"tabId":3,"selector":"#a","modifiers":{"hyper":true}})"));
  CHECK(accepts("browser_mouse", R"({"tabId":3,"action":"drag","x":1,"y":2,"toX":3,"toY":4})"));
  CHECK_FALSE(accepts("browser_mouse", R"({"tabId":3,"action":"press","x":1,"y":2})"));
  CHECK_FALSE(accepts("browser_wait", R"({"ms":60000})"));
  CHECK_FALSE(accepts("browser_throttle_cpu", R"({"tabId":1,"rate":50})"));
  // A drop from outside the page: files or data, onto a target named by selector or ref.
  CHECK(accepts("browser_drag_element", R"({"tabId":1,"toSelector":"#zone","files":["a.txt"]})"));
  CHECK(accepts("browser_drag_element", R"({"tabId":1,"toRef":"e3@ab12","data":{"text/plain":"hi"}})"));
  CHECK_FALSE(accepts("browser_drag_element", R"({"tabId":1,"files":["a.txt"]})"));
  CHECK_FALSE(accepts("browser_drag_element", R"({"tabId":1,"toSelector":"#zone","data":{}})"));
  CHECK_FALSE(accepts("browser_drag_element", R"({"tabId":1,"toSelector":"#zone","data":{"text/plain":1}})"));
  CHECK_FALSE(accepts("browser_drag_element", R"({"tabId":1,"toSelector":"#zone","files":[]})"));
}

TEST_CASE("browser_notify takes what the original takes: an empty message and a long title") {
  CHECK(accepts("browser_notify", R"({"title":"Build finished","message":""})"));
  CHECK(accepts("browser_notify", R"({"title":")" + std::string(600, 't') + R"(","message":"done"})"));
  CHECK_FALSE(accepts("browser_notify", R"({"title":"Build finished"})"));
  CHECK_FALSE(accepts("browser_notify", R"({"title":"","message":"x"})"));
}

TEST_CASE("with_schema_defaults fills documented defaults and keeps given values") {
  const auto* wait = find_browser_tool("browser_wait_for_element");
  REQUIRE(wait != nullptr);
  auto filled = tools::with_schema_defaults(*wait, args(R"({"tabId":1,"selector":"#x"})"));
  CHECK(json::get_int(filled, "timeout") == 10000);
  CHECK(json::get_bool(filled, "visible") == std::optional<bool>(false));
  CHECK(!filled.contains("ref"));
  auto kept = tools::with_schema_defaults(*wait, args(R"({"tabId":1,"selector":"#x","timeout":500})"));
  CHECK(json::get_int(kept, "timeout") == 500);
  const auto* html = find_browser_tool("browser_get_page_html");
  auto h = tools::with_schema_defaults(*html, args(R"({"tabId":1})"));
  CHECK(*json::get_string(h, "selector") == "html");
  CHECK(json::get_int(h, "maxLength") == 200000);
  const auto* open = find_browser_tool("browser_open_tab");
  CHECK(*json::get_string(tools::with_schema_defaults(*open, args(R"({"url":"https://a.com/"})")), "waitUntil") == "load");
}
