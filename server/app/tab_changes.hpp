// The extension's tab events (tab.changed) as MCP resource changes, debounced so a busy
// page cannot flood a client: the first event after a quiet spell opens a batch, and
// `debounce` later the batch goes out as one tools::resource_change (each tab's resources
// updated at most once; the listing changed when a tab opened or closed).  The batch is a
// plain class; tab_changes only owns the wait, in the server's task_group.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string_view>

#include "net/asio.hpp"
#include "net/task_group.hpp"
#include "tools/events.hpp"

namespace opentabs::app {

// opened, navigated, loaded, closed.
bool is_tab_change(std::string_view change);

class tab_change_batch {
 public:
  // Tabs one batch names at most; beyond it the listing is said to have changed instead
  // (a client re-reads what it needs).
  static constexpr std::size_t max_tabs = 256;

  // True when this event opens a batch (nothing was pending): the caller waits, then takes.
  bool note(std::int64_t tab_id, std::string_view change);
  // The batch so far, as the URIs of the tabs' resources; empties it.
  tools::resource_change take();
  bool pending() const { return pending_; }

 private:
  std::set<std::int64_t> updated_;
  bool list_changed_ = false;
  bool pending_ = false;
};

class tab_changes {
 public:
  // Production wait between the first event of a batch and its announcement; tests
  // shorten it with OPENTABS_MCP_RESOURCE_DEBOUNCE_MS.
  static constexpr std::chrono::milliseconds default_debounce{500};

  tab_changes(tools::server_events& events, net::task_group& tasks, std::chrono::milliseconds debounce);
  ~tab_changes();
  tab_changes(const tab_changes&) = delete;
  tab_changes& operator=(const tab_changes&) = delete;

 private:
  void on_tab(std::int64_t tab_id, std::string_view change);
  net::awaitable<void> announce_later();

  tools::server_events& events_;
  net::task_group& tasks_;
  std::chrono::milliseconds debounce_;
  tab_change_batch batch_;
  tools::server_events::token token_ = 0;
};

}  // namespace opentabs::app
