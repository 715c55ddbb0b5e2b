// Server-wide events that transports fan out to their sessions: the tool set or a
// permission changed (→ notifications/tools/list_changed) and plugin log entries
// (→ notifications/message).  Subscribers are called synchronously on the io thread and
// must not block.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "json/json.hpp"

namespace opentabs::tools {

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
  void unsubscribe(token t) {
    tools_changed_.erase(t);
    plugin_log_.erase(t);
  }

  void tools_changed() {
    auto copy = tools_changed_;
    for (auto& [t, f] : copy) f();
  }
  void plugin_log(const plugin_log_entry& e) {
    auto copy = plugin_log_;
    for (auto& [t, f] : copy) f(e);
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
};

}  // namespace opentabs::tools
