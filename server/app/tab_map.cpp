#include "app/tab_map.hpp"

#include <algorithm>

namespace opentabs::app {

std::string_view to_string(tab_state s) {
  switch (s) {
    case tab_state::closed: return "closed";
    case tab_state::unavailable: return "unavailable";
    case tab_state::ready: return "ready";
  }
  return "closed";
}

std::optional<tab_state> parse_tab_state(std::string_view text) {
  if (text == "closed") return tab_state::closed;
  if (text == "unavailable") return tab_state::unavailable;
  if (text == "ready") return tab_state::ready;
  return std::nullopt;
}

tab_state best_of(tab_state a, tab_state b) { return std::max(a, b); }

json::object tab_info::to_json() const {
  return json::object{{"tabId", tab_id}, {"url", json::str(url)}, {"title", json::str(title)}, {"ready", ready}};
}

plugin_tabs tab_map::parse_entry(const json::object& entry) {
  plugin_tabs out;
  if (const auto* st = json::get_string(entry, "state")) out.state = parse_tab_state(*st).value_or(tab_state::closed);
  if (const auto* list = json::get_array(entry, "tabs")) {
    for (const auto& t : *list) {
      if (!t.is_object()) continue;
      const auto& o = t.get_object();
      auto id = json::get_int(o, "tabId");
      if (!id) continue;
      tab_info tab;
      tab.tab_id = *id;
      if (const auto* url = json::get_string(o, "url")) tab.url = std::string(*url);
      if (const auto* title = json::get_string(o, "title")) tab.title = std::string(*title);
      tab.ready = json::get_bool(o, "ready").value_or(false);
      out.tabs.push_back(std::move(tab));
      if (out.tabs.size() >= max_tabs_per_plugin) break;
    }
  }
  return out;
}

void tab_map::replace_all(const json::object& wire_map) {
  std::map<std::string, plugin_tabs, std::less<>> next;
  for (const auto& kv : wire_map)
    if (kv.value().is_object()) next[std::string(kv.key())] = parse_entry(kv.value().get_object());
  plugins_ = std::move(next);
}

void tab_map::set(const std::string& plugin, plugin_tabs entry) { plugins_[plugin] = std::move(entry); }

const plugin_tabs* tab_map::find(std::string_view plugin) const {
  auto it = plugins_.find(plugin);
  return it == plugins_.end() ? nullptr : &it->second;
}

tab_state tab_map::state_of(std::string_view plugin) const {
  const auto* e = find(plugin);
  return e ? e->state : tab_state::closed;
}

const tab_info* tab_map::find_tab(std::int64_t tab_id) const {
  for (const auto& [name, entry] : plugins_)
    for (const auto& t : entry.tabs)
      if (t.tab_id == tab_id) return &t;
  return nullptr;
}

}  // namespace opentabs::app
