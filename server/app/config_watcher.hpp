// Applies config.json edited by hand or by another process without a restart (all modes),
// and in dev mode a rebuilt dist/ of a local plugin: polls file stamps (mtime, size, inode:
// a few stat calls per interval, portable) and runs the reload pipeline when one moved.
// Its statistics feed /health fileWatcher.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <map>
#include <string>

#include "app/reload_pipeline.hpp"
#include "app/plugin_catalog.hpp"
#include "app/runtime_stats.hpp"
#include "app/server_config.hpp"
#include "config/config_store.hpp"
#include "net/asio.hpp"

namespace opentabs::app {

// What the dev watcher compares between polls: per plugin folder its package.json and the
// dist/ build outputs (dev_stamp_files of them).  Folders come from the loaded local
// plugins, the configured localPlugins (also those that failed to load or are not built
// yet, so a fix or a first build is picked up) and the children of localPluginDirs (so a
// new plugin folder is too; at most max_children_per_dir of each).
inline constexpr std::size_t dev_stamp_files = 3;
inline constexpr std::size_t max_children_per_dir = 1000;
std::map<std::string, config::file_stamp> local_plugin_stamps(const std::vector<plugins::plugin>& loaded,
                                                              const config::config_file& cfg,
                                                              const std::filesystem::path& home,
                                                              const std::filesystem::path& config_dir);

class config_watcher {
 public:
  static constexpr std::chrono::milliseconds default_interval{2000};
  // --dev: a plugin author waits on the rebuilt dist/ (the original reacts to file events after
  // a 200 ms debounce); a few stat calls per plugin folder per interval.
  static constexpr std::chrono::milliseconds dev_interval{250};
  static constexpr std::chrono::milliseconds min_interval{50};
  // `interval` below min_interval is raised to it.
  config_watcher(asio::any_io_executor ex, const server_config& config, const plugin_catalog& catalog, watcher_stats& watcher,
                 reload_pipeline& reload, std::filesystem::path home, std::chrono::milliseconds interval = default_interval);

  // Polls until stop().
  net::awaitable<void> run();
  void stop();

 private:
  std::map<std::string, config::file_stamp> dev_stamps() const;

  const server_config& config_;
  const plugin_catalog& catalog_;
  watcher_stats& watcher_;  // /health fileWatcher: this watcher alone writes it
  reload_pipeline& reload_;
  std::filesystem::path home_;
  std::chrono::milliseconds interval_;
  asio::steady_timer timer_;
  bool stopping_ = false;
};

}  // namespace opentabs::app
