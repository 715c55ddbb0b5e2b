// Server-wide events that transports fan out to their sessions: the tool set or a
// permission changed (→ notifications/tools/list_changed), plugin log entries
// (→ notifications/message) and resources that changed (→ notifications/resources/updated
// to their subscribers, notifications/resources/list_changed).  Subscribers are called synchronously on the io thread and
// must not block.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "json/json.hpp"

namespace opentabs::tools {

// A debounced batch of resource changes: the URIs whose contents changed (or that went
// away) and whether the listing changed.
struct resource_change {
  std::vector<std::string> updated;
  bool list_changed = false;
};

struct plugin_log_entry {
  std::string plugin;
  std::string level;    // debug | info | warning | error
  std::string message;
  json::value data;     // null when absent
  std::int64_t ts = 0;  // epoch ms
};

class server_events {
 public:
  using token = std::uint64_t;

  token on_tools_changed(std::function<void()> f) { return add(tools_changed_, std::move(f)); }
  token on_plugin_log(std::function<void(const plugin_log_entry&)> f) { return add(plugin_log_, std::move(f)); }
  // A browser tab opened, navigated, finished loading or closed (the extension's
  // tab.changed), before debouncing: app/tab_changes turns these into resource changes.
  token on_tab_changed(std::function<void(std::int64_t tab_id, std::string_view change)> f) { return add(tab_changed_, std::move(f)); }
  token on_resources_changed(std::function<void(const resource_change&)> f) { return add(resources_changed_, std::move(f)); }
  void unsubscribe(token t) {
    tools_changed_.erase(t);
    plugin_log_.erase(t);
    resources_changed_.erase(t);
    tab_changed_.erase(t);
  }

  void tools_changed() {
    auto copy = tools_changed_;
    for (auto& [t, f] : copy) f();
  }
  void plugin_log(const plugin_log_entry& e) {
    auto copy = plugin_log_;
    for (auto& [t, f] : copy) f(e);
  }
  void tab_changed(std::int64_t tab_id, std::string_view change) {
    auto copy = tab_changed_;
    for (auto& [t, f] : copy) f(tab_id, change);
  }
  void resources_changed(const resource_change& c) {
    auto copy = resources_changed_;
    for (auto& [t, f] : copy) f(c);
  }

 private:
  template <class F>
  token add(std::map<token, F>& m, F f) {
    auto t = ++next_;
    m.emplace(t, std::move(f));
    return t;
  }
  token next_ = 0;
  std::map<token, std::function<void()>> tools_changed_;
  std::map<token, std::function<void(const plugin_log_entry&)>> plugin_log_;
  std::map<token, std::function<void(const resource_change&)>> resources_changed_;
  std::map<token, std::function<void(std::int64_t, std::string_view)>> tab_changed_;
};

}  // namespace opentabs::tools
