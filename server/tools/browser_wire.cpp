// Argument → wire-param translations of the built-in browser tools, one function per tool
// that needs one, chosen from a table by tool name.
#include "tools/browser_wire.hpp"

#include <cmath>
#include <functional>
#include <map>
#include <string>

#include "util/clock.hpp"

namespace opentabs::tools {
namespace {

using translation = std::function<void(json::object&)>;

// ["Control","Shift"] → {"ctrl":true,"shift":true}; an object passes through.
void press_key(json::object& p) {
  const json::array* names = json::get_array(p, "modifiers");
  if (!names) return;
  static const std::map<std::string, std::string, std::less<>> flag_of = {
      {"Alt", "alt"}, {"Control", "ctrl"}, {"Meta", "meta"}, {"Shift", "shift"}};
  json::object flags;
  for (const auto& n : *names) {
    if (!n.is_string()) continue;
    if (auto it = flag_of.find(std::string_view(n.as_string())); it != flag_of.end()) flags[it->second] = true;
  }
  if (flags.empty()) p.erase("modifiers");
  else p["modifiers"] = std::move(flags);
}

// "top" → {"y":0}; "bottom" → {"y":<beyond the end>}; {x,y} passes through.
void scroll(json::object& p) {
  const json::string* where = json::get_string(p, "position");
  if (!where) return;
  p["position"] = json::object{{"y", *where == "top" ? std::int64_t{0} : scroll_bottom_offset}};
}

// Numeric ms-since-epoch times → ISO strings; strings pass through.
void search_history(json::object& p) {
  for (std::string_view key : {"startTime", "endTime"}) {
    const json::value* v = json::find(p, key);
    if (!v || !v->is_number()) continue;
    const double ms = v->to_number<double>();
    p[key] = json::str(iso8601_from_epoch_ms(static_cast<std::int64_t>(std::llround(ms))));
  }
}

// "hover" → ":hover", without duplicates.
void force_pseudo_state(json::object& p) {
  const json::array* given = json::get_array(p, "pseudoClasses");
  if (!given) return;
  json::array wire;
  for (const auto& c : *given) {
    if (!c.is_string()) continue;
    std::string name(c.as_string());
    if (name.empty() || name.front() != ':') name.insert(name.begin(), ':');
    bool seen = false;
    for (const auto& w : wire) seen = seen || w.as_string() == name;
    if (!seen) wire.push_back(json::str(name));
  }
  p["pseudoClasses"] = std::move(wire);
}

// "fast-3g" is not an OpenTabs preset: send Chrome DevTools' Fast 3G as explicit values
// (which both extensions apply when no preset is given).
void throttle_network(json::object& p) {
  const json::string* preset = json::get_string(p, "preset");
  if (!preset || *preset != "fast-3g") return;
  p.erase("preset");
  p["latency"] = 563;
  p["downloadThroughput"] = 180000;
  p["uploadThroughput"] = 84375;
}

// level/source "all" mean no filter: left out, as the OpenTabs server does.
void extension_get_logs(json::object& p) {
  for (std::string_view key : {"level", "source"}) {
    if (const json::string* v = json::get_string(p, key); v && *v == "all") p.erase(key);
  }
}

// The OpenTabs server names the first tab as tabId too (it routes the request).
void first_tab_as_tab_id(json::object& p) {
  const json::array* ids = json::get_array(p, "tabIds");
  if (ids && !ids->empty() && ids->front().is_int64()) p["tabId"] = ids->front();
}

void wait_for_element(json::object& p) {
  if (auto t = json::get_int(p, "timeout"); t && *t > max_wire_wait_timeout_ms) p["timeout"] = max_wire_wait_timeout_ms;
}

const std::map<std::string, translation, std::less<>>& translations() {
  static const std::map<std::string, translation, std::less<>> table = {
      {"browser_press_key", press_key},
      {"browser_scroll", scroll},
      {"browser_search_history", search_history},
      {"browser_force_pseudo_state", force_pseudo_state},
      {"browser_throttle_network", throttle_network},
      {"extension_get_logs", extension_get_logs},
      {"browser_add_tabs_to_group", first_tab_as_tab_id},
      {"browser_create_tab_group", first_tab_as_tab_id},
      {"browser_wait_for_element", wait_for_element},
  };
  return table;
}

}  // namespace

json::object to_wire_params(std::string_view tool_name, json::object arguments) {
  const auto& table = translations();
  if (auto it = table.find(tool_name); it != table.end()) it->second(arguments);
  return arguments;
}

}  // namespace opentabs::tools
