// Which MCP client holds which browser tabs, for /health: a tab belongs to the client (by its
// clientInfo name) that opened it — the tab is in that client's tab group, and the extension
// refuses other clients' actions on it — until it is closed or the client's last session ends.
// Bounded: at most max_clients names, the
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

  // `client` holds `tab_id` now, whoever held it before (an empty name, a client without
  // clientInfo, is not tracked).
  void touched(std::string_view client, std::int64_t tab_id);
  // The tab was closed through a tool: nobody holds it any more.
  void closed(std::int64_t tab_id);
  // The client's last session ended: it holds nothing any more and is not listed.
  void ended(std::string_view client);

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
