// Which MCP client holds which browser tabs, for /health: a tab belongs to the client (by its
// clientInfo name) that last opened it or acted on it with a browser tool, so when two clients
// ask for the same tab the later one holds it.  Bounded: at most max_clients names, the
// longest-unheard dropped first, and max_tabs tabs in all, the longest-untouched dropped first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "json/json.hpp"

namespace opentabs::app {

class client_tabs {
 public:
  static constexpr std::size_t max_clients = 32;
  static constexpr std::size_t max_tabs = 1000;
  static constexpr std::size_t max_name = 64;

  // `client` acted on `tab_id` (an empty name, a client without clientInfo, is not tracked).
  void touched(std::string_view client, std::int64_t tab_id);
  // The tab was closed through a tool: nobody holds it any more.
  void closed(std::int64_t tab_id);

  // [{"client": name, "tabs": [ids, longest-untouched first]}], the client heard from last
  // last.
  json::array to_json() const;

 private:
  struct held {
    std::int64_t tab_id;
    std::string client;
  };
  std::vector<std::string> names_;  // the client heard from last is last
  std::vector<held> tabs_;          // the tab touched last is last
};

}  // namespace opentabs::app
