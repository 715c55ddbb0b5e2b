// tab_map: entries parsed once from the wire (bad tabs dropped, unknown states closed, a
// bound on tabs), tab.syncAll replacing everything, tab.stateChanged one plugin, and the
// order of preference across profiles: ready beats unavailable beats closed.
#include "app/tab_map.hpp"

#include <doctest/doctest.h>

using namespace opentabs;
using namespace opentabs::app;

TEST_CASE("tab states parse, print and rank: ready beats unavailable beats closed") {
  for (auto s : {tab_state::closed, tab_state::unavailable, tab_state::ready}) CHECK(parse_tab_state(to_string(s)) == s);
  CHECK_FALSE(parse_tab_state("open").has_value());
  CHECK(best_of(tab_state::closed, tab_state::unavailable) == tab_state::unavailable);
  CHECK(best_of(tab_state::ready, tab_state::unavailable) == tab_state::ready);
  CHECK(best_of(tab_state::unavailable, tab_state::ready) == tab_state::ready);
  CHECK(best_of(tab_state::closed, tab_state::closed) == tab_state::closed);
}

TEST_CASE("parse_entry keeps well-formed tabs only and reads an unknown state as closed") {
  auto entry = json::parse_object(R"({"state":"sleeping","tabs":[
      {"tabId":7,"url":"https://a.example/x","title":"A","ready":true},
      {"tabId":"8","url":"https://b.example"},
      "not a tab",
      {"tabId":9}]})");
  REQUIRE(entry);
  auto tabs = tab_map::parse_entry(*entry);
  CHECK(tabs.state == tab_state::closed);
  REQUIRE(tabs.tabs.size() == 2);
  CHECK(tabs.tabs[0].tab_id == 7);
  CHECK(tabs.tabs[0].ready);
  CHECK(json::dump(tabs.tabs[0].to_json()) == R"({"tabId":7,"url":"https://a.example/x","title":"A","ready":true})");
  CHECK(json::dump(tabs.tabs[1].to_json()) == R"({"tabId":9,"url":"","title":"","ready":false})");
}

TEST_CASE("parse_entry keeps at most max_tabs_per_plugin tabs") {
  json::array many;
  for (std::size_t i = 0; i < tab_map::max_tabs_per_plugin + 5; ++i)
    many.push_back(json::object{{"tabId", static_cast<std::int64_t>(i)}});
  auto tabs = tab_map::parse_entry(json::object{{"state", "ready"}, {"tabs", std::move(many)}});
  CHECK(tabs.state == tab_state::ready);
  CHECK(tabs.tabs.size() == tab_map::max_tabs_per_plugin);
}

TEST_CASE("replace_all forgets plugins not in the new map; set changes one plugin") {
  tab_map map;
  auto first = json::parse_object(R"({"slack":{"state":"ready","tabs":[{"tabId":1}]},
                                      "jira":{"state":"unavailable","tabs":[{"tabId":2}]}})");
  REQUIRE(first);
  map.replace_all(*first);
  CHECK(map.state_of("slack") == tab_state::ready);
  CHECK(map.state_of("jira") == tab_state::unavailable);
  CHECK(map.state_of("unknown") == tab_state::closed);
  CHECK(map.has_tab(2));
  CHECK_FALSE(map.has_tab(3));

  auto second = json::parse_object(R"({"slack":{"state":"closed","tabs":[]},"skipped":"not an entry"})");
  REQUIRE(second);
  map.replace_all(*second);
  CHECK(map.find("jira") == nullptr);
  CHECK(map.find("skipped") == nullptr);
  CHECK(map.state_of("slack") == tab_state::closed);
  CHECK_FALSE(map.has_tab(1));

  map.set("jira", plugin_tabs{tab_state::ready, {tab_info{5, "https://j.example", "J", true}}});
  CHECK(map.state_of("jira") == tab_state::ready);
  CHECK(map.has_tab(5));
}
