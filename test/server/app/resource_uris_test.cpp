// The server's own resource URIs: what each names, the tab reads they become, the tab
// listing built from browser_list_tabs, and a tool's answer as a resource's contents.
#include <doctest/doctest.h>

#include "app/resource_uris.hpp"

using namespace opentabs;
using namespace opentabs::app;

TEST_CASE("opentabs:// URIs name health, the audit log, a plugin or a tab view; anything else names nothing") {
  CHECK(parse_resource_ref("opentabs://health")->kind == resource_kind::health);
  CHECK(parse_resource_ref("opentabs://audit")->kind == resource_kind::audit);
  auto plugin = parse_resource_ref("opentabs://plugins/slack");
  REQUIRE(plugin);
  CHECK(plugin->kind == resource_kind::plugin);
  CHECK(plugin->plugin == "slack");
  CHECK(parse_resource_ref(plugin_uri("slack"))->plugin == "slack");
  auto tab = parse_resource_ref("opentabs://tabs/42");
  REQUIRE(tab);
  CHECK(tab->kind == resource_kind::tab);
  CHECK(tab->tab_id == 42);
  CHECK(tab_uri(42) == "opentabs://tabs/42");
  CHECK(parse_resource_ref("opentabs://tabs/42/text")->kind == resource_kind::tab_text);
  CHECK(parse_resource_ref("opentabs://tabs/42/screenshot")->kind == resource_kind::tab_screenshot);
  CHECK(parse_resource_ref("opentabs://tabs/42/snapshot")->kind == resource_kind::tab_snapshot);
  for (auto bad : {"opentabs://tabs/0", "opentabs://tabs/-1", "opentabs://tabs/4x", "opentabs://tabs/", "opentabs://tabs/42/html",
                   "opentabs://tabs/42/text/more", "opentabs://plugins/", "opentabs://plugins/a/b", "opentabs://healthz",
                   "test://static-text", "https://example.com/", "opentabs://tabs/99999999999999999999"})
    CHECK_MESSAGE(!parse_resource_ref(bad), bad);
}

TEST_CASE("each tab view is read by its browser tool, which the pipeline gates and audits") {
  auto read = [](std::string_view uri) { return tab_read_for(*parse_resource_ref(uri)); };
  CHECK(read("opentabs://tabs/7")->tool == "browser_get_tab_info");
  CHECK(read("opentabs://tabs/7/text")->tool == "browser_get_tab_content");
  CHECK(read("opentabs://tabs/7/snapshot")->tool == "browser_snapshot");
  auto shot = read("opentabs://tabs/7/screenshot");
  CHECK(shot->tool == "browser_screenshot_tab");
  CHECK(shot->arguments.at("tabId").as_int64() == 7);
  CHECK(shot->arguments.at("format").as_string() == "png");
  CHECK_FALSE(read("opentabs://health"));
  CHECK_FALSE(read("opentabs://plugins/slack"));
}

TEST_CASE("the tab listing: two entries per tab with a numeric id, the tab and its text, named by its title (or URL)") {
  auto tabs = json::parse(R"([{"id":3,"title":"Inbox","url":"https://mail.example/"},{"id":4,"title":"","url":"https://b.example/"},
                              {"title":"no id"},{"id":"5"}])");
  REQUIRE(tabs);
  auto listed = tab_resources(tabs->get_array());
  REQUIRE(listed.size() == 4);
  CHECK(listed[0].uri == "opentabs://tabs/3");
  CHECK(listed[0].name == "tab-3");
  CHECK(listed[0].title == "Inbox");
  CHECK(listed[0].description.find("https://mail.example/") != std::string::npos);
  CHECK(listed[0].description.find("opentabs://tabs/3/text") != std::string::npos);
  CHECK(listed[1].uri == "opentabs://tabs/3/text");
  CHECK(listed[1].name == "tab-3-text");
  CHECK(listed[1].title == "Inbox (text)");
  CHECK(listed[1].mime_type == "text/plain");
  CHECK(listed[2].title == "https://b.example/");
  CHECK(listed[3].uri == "opentabs://tabs/4/text");
  CHECK(tab_templates().size() == 4);
  CHECK(fixed_resources().size() == 2);
}

TEST_CASE("a tool's answer as contents: text joined, an image as a blob, a failure as the read's error") {
  tools::call_result text;
  text.content = json::array{json::object{{"type", "text"}, {"text", "one"}}, json::object{{"type", "text"}, {"text", "two"}}};
  auto t = contents_of("opentabs://tabs/1/text", text);
  REQUIRE(t);
  CHECK(t->at(0).at("text").as_string() == "one\ntwo");
  CHECK(t->at(0).at("mimeType").as_string() == "text/plain");
  CHECK(t->at(0).at("uri").as_string() == "opentabs://tabs/1/text");

  auto page = contents_of("opentabs://tabs/1/text", tools::call_result::text(R"({"url":"https://a.example/","title":"A","content":"[page]\nhi\n[/page]"})"));
  REQUIRE(page);
  CHECK(page->at(0).at("text").as_string() == "[page]\nhi\n[/page]");

  tools::call_result image;
  image.content = json::array{json::object{{"type", "text"}, {"text", "ratio 1"}},
                              json::object{{"type", "image"}, {"data", "iVBOR"}, {"mimeType", "image/png"}}};
  auto i = contents_of("opentabs://tabs/1/screenshot", image);
  REQUIRE(i);
  CHECK(i->at(0).at("blob").as_string() == "iVBOR");
  CHECK(i->at(0).at("mimeType").as_string() == "image/png");

  auto closed = contents_of("opentabs://tabs/9/text", tools::call_result::text("Browser tool error: No tab with id: 9.", true));
  REQUIRE_FALSE(closed);
  CHECK(closed.err().kind == errc::not_found);
  auto refused = contents_of("opentabs://tabs/9/text", tools::call_result::text("Tool is currently disabled", true, errc::tool_failed));
  REQUIRE_FALSE(refused);
  CHECK(refused.err().kind == errc::tool_failed);
  CHECK(refused.err().message == "Tool is currently disabled");
}
