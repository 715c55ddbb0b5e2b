#include "app/config_watcher.hpp"

#include <algorithm>

#include "app/original_lines.hpp"
#include "plugins/discovery.hpp"
#include "util/clock.hpp"
#include "util/log.hpp"
#include "util/original_log.hpp"

namespace opentabs::app {

namespace fs = std::filesystem;

std::map<std::string, config::file_stamp> local_plugin_stamps(const std::vector<plugins::plugin>& loaded,
                                                              const config::config_file& cfg, const fs::path& home,
                                                              const fs::path& config_dir) {
  std::map<std::string, config::file_stamp> out;
  auto stamp_plugin_dir = [&](const fs::path& dir) {
    for (const char* f : {"package.json", "dist/adapter.iife.js", "dist/tools.json"})
      out[(dir / f).string()] = config::stamp_of(dir / f);
  };
  for (const auto& p : loaded)
    if (p.loaded.source == "local") stamp_plugin_dir(p.loaded.source_path);
  for (const auto& spec : cfg.local_plugins)
    if (auto r = plugins::resolve_specifier(spec, home, config_dir); r.path) stamp_plugin_dir(*r.path);
  for (const auto& spec : cfg.local_plugin_dirs) {
    auto r = plugins::resolve_specifier(spec, home, config_dir);
    if (!r.path) continue;
    std::error_code ec;
    std::size_t seen = 0;
    for (auto it = fs::directory_iterator(*r.path, ec); !ec && it != fs::directory_iterator() && seen < max_children_per_dir;
         it.increment(ec), ++seen)
      if (it->is_directory(ec)) stamp_plugin_dir(it->path());
  }
  return out;
}

config_watcher::config_watcher(asio::any_io_executor ex, const server_config& config, const plugin_catalog& catalog,
                               watcher_stats& watcher, reload_pipeline& reload, fs::path home,
                               std::chrono::milliseconds interval)
    : config_(config),
      catalog_(catalog),
      watcher_(watcher),
      reload_(reload),
      home_(std::move(home)),
      interval_(std::max<std::chrono::milliseconds>(interval, min_interval)),
      timer_(ex) {}

std::map<std::string, config::file_stamp> config_watcher::dev_stamps() const {
  return local_plugin_stamps(catalog_.plugins, config_.cfg, home_, config_.paths.dir);
}

net::awaitable<void> config_watcher::run() {
  auto plugin_stamps = config_.dev ? dev_stamps() : std::map<std::string, config::file_stamp>{};
  watcher_.watched_plugins = plugin_stamps.size() / dev_stamp_files;
  // Said once the stamps are taken, so a change made after the line is seen.
  log::original_line(original_lines::config_watching(config_.paths.dir));
  if (config_.dev) {
    const auto loaded = static_cast<std::size_t>(
        std::ranges::count_if(catalog_.plugins, [](const plugins::plugin& p) { return p.loaded.source == "local"; }));
    log::original_line(original_lines::file_watching(loaded, watcher_.watched_plugins - std::min(loaded, watcher_.watched_plugins)));
  }
  while (!stopping_) {
    timer_.expires_after(interval_);
    auto [ec] = co_await timer_.async_wait(net::as_value);
    if (ec || stopping_) co_return;
    watcher_.last_poll_ms = now_epoch_ms();
    bool config_moved = config::stamp_of(config_.store.path()) != config_.cfg_stamp;
    bool dist_moved = false;
    if (config_.dev) {
      auto now = dev_stamps();
      dist_moved = now != plugin_stamps;
      plugin_stamps = std::move(now);
      watcher_.watched_plugins = plugin_stamps.size() / dev_stamp_files;
    }
    if (!config_moved && !dist_moved) continue;
    ++watcher_.poll_detections;
    if (config_moved) log::original_line(original_lines::config_changed());
    else log::info("a local plugin was rebuilt; reloading");
    co_await reload_.reload_off_thread(reload_cause::config_file);
    if (config_.dev) plugin_stamps = dev_stamps();
  }
}

void config_watcher::stop() {
  stopping_ = true;
  timer_.cancel();
}

}  // namespace opentabs::app
