// Everything the running server knows, in one place on the io thread: paths, the last good
// config, the secret, the loaded plugins and tool registry, permissions switches, audit,
// plugin log rings and reload statistics.  Plain data; the reload pipeline replaces parts
// of it as a whole, and readers take what they need synchronously.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/tool_registry.hpp"
#include "app/webmcp_directory.hpp"
#include "audit/audit_log.hpp"
#include "config/config.hpp"
#include "config/config_paths.hpp"
#include "config/config_store.hpp"
#include "json/json.hpp"
#include "plugins/discovery.hpp"
#include "plugins/payload.hpp"
#include "plugins/plugin.hpp"
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

struct server_state {
  server_state(config::config_paths p, std::filesystem::path home)
      : paths(std::move(p)), store(paths.config_json(), std::move(home)),
        audit(audit::persisted_to(paths.audit_log())) {}

  config::config_paths paths;
  config::config_store store;
  config::config_file cfg;  // the last good config
  // The version of config.json `cfg` was read from or written as: the config watcher
  // reloads when the file on disk is no longer this version.
  config::file_stamp cfg_stamp;
  std::string secret;       // never logged
  bool skip_permissions = false;
  bool dev = false;
  std::string server_source_path;   // where the server's own files live (sync.full)

  std::vector<plugins::plugin> plugins;                    // loaded, registry order
  std::vector<plugins::discovery_error> discovery_errors;  // broken plugins and skipped paths
  tool_registry registry;
  webmcp_directory webmcp;  // tools pages publish through WebMCP (not reloaded: pages own them)

  // npm package name -> the newer version the last update check found (spec: the `update`
  // field of plugins in sync.full and the config state).
  std::map<std::string, plugins::update_info, std::less<>> plugin_updates;

  audit::audit_log audit;
  std::map<std::string, log_ring> plugin_logs;
  reload_stats reloads;
  watcher_stats watcher;
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();

  std::optional<plugins::update_info> update_for(const plugins::plugin& p) const {
    if (p.loaded.source != "npm") return std::nullopt;
    auto it = plugin_updates.find(p.loaded.package_name);
    if (it == plugin_updates.end()) return std::nullopt;
    return it->second;
  }

  const plugins::plugin* find_plugin(std::string_view name) const {
    for (const auto& p : plugins)
      if (p.name() == name) return &p;
    return nullptr;
  }
};

}  // namespace opentabs::app
