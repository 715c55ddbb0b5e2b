// What one extension connection (one browser profile) reports about each plugin's tabs
// (spec §3.5 tab.syncAll / tab.stateChanged): the plugin's state and its open tabs.  Parsed
// from the wire once, typed from then on; tabs without a numeric tabId are dropped and an
// unknown state reads as closed.  Across connections a plugin's state is the best one:
// ready beats unavailable beats closed (best_of).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/json.hpp"

namespace opentabs::app {

enum class tab_state { closed, unavailable, ready };  // in rising order of preference

std::string_view to_string(tab_state s);
std::optional<tab_state> parse_tab_state(std::string_view text);
// The state a plugin has when one profile reports `a` and another `b`.
tab_state best_of(tab_state a, tab_state b);

struct tab_info {
  std::int64_t tab_id = 0;
  std::string url;
  std::string title;
  bool ready = false;  // the adapter in this tab answered
  // {"tabId","url","title","ready"} (TabInfo), the shape the extension sent.
  json::object to_json() const;
};

struct plugin_tabs {
  tab_state state = tab_state::closed;
  std::vector<tab_info> tabs;
};

class tab_map {
 public:
  static constexpr std::size_t max_tabs_per_plugin = 1000;

  // One plugin's entry {state, tabs:[TabInfo]} as the extension sends it.
  static plugin_tabs parse_entry(const json::object& entry);

  // tab.syncAll: the whole map (plugin → entry) replaces what was known.
  void replace_all(const json::object& wire_map);
  // tab.stateChanged: one plugin's entry.
  void set(const std::string& plugin, plugin_tabs entry);

  // Null when the connection reported nothing for `plugin`.
  const plugin_tabs* find(std::string_view plugin) const;
  // closed when nothing was reported.
  tab_state state_of(std::string_view plugin) const;
  // Some plugin has the tab `tab_id` open in this profile.
  bool has_tab(std::int64_t tab_id) const { return find_tab(tab_id) != nullptr; }
  // That tab as reported, or null.
  const tab_info* find_tab(std::int64_t tab_id) const;

 private:
  std::map<std::string, plugin_tabs, std::less<>> plugins_;
};

}  // namespace opentabs::app
