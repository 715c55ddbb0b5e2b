// What the running server counts for /health: plugin log rings, reload and file-watcher
// statistics, which MCP client holds which tabs and the start time.  Each writer owns its own field (the extension handlers
// the logs, the reload pipeline the reloads, the config watcher the watcher); /health reads.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <string>

#include "app/client_tabs.hpp"
#include "tools/events.hpp"

namespace opentabs::app {

// The last 1000 plugin.log entries of one plugin (spec §3.5).
class log_ring {
 public:
  static constexpr std::size_t capacity = 1000;
  void push(tools::plugin_log_entry e) {
    if (entries_.size() == capacity) entries_.pop_front();
    entries_.push_back(std::move(e));
  }
  std::size_t size() const { return entries_.size(); }
  const std::deque<tools::plugin_log_entry>& entries() const { return entries_; }

 private:
  std::deque<tools::plugin_log_entry> entries_;
};

// /health fileWatcher.
struct watcher_stats {
  std::size_t watched_plugins = 0;
  std::int64_t last_poll_ms = 0;  // 0 = no poll yet
  std::uint64_t poll_detections = 0;
};

struct reload_stats {
  std::uint64_t count = 0;
  std::int64_t last_timestamp_ms = 0;
  std::int64_t last_duration_ms = 0;
};

struct runtime_stats {
  std::map<std::string, log_ring> plugin_logs;
  reload_stats reloads;
  watcher_stats watcher;
  client_tabs clients;  // written by browser_backend
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
};

}  // namespace opentabs::app
