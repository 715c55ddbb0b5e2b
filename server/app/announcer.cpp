#include "app/announcer.hpp"

#include <algorithm>

#include "app/original_lines.hpp"
#include "app/payloads.hpp"
#include "plugins/payload.hpp"
#include "util/log.hpp"
#include "util/original_log.hpp"

namespace opentabs::app {

namespace {

json::object notification(std::string_view method, json::object params) {
  return json::object{{"jsonrpc", "2.0"}, {"method", json::str(method)}, {"params", std::move(params)}};
}

}  // namespace

reload_news rebuilt_plugins(const std::vector<plugins::plugin>& before, const std::vector<plugins::plugin>& after) {
  std::map<std::string_view, const plugins::loaded_plugin*> old;
  for (const auto& p : before) old[p.name()] = &p.loaded;
  reload_news news;
  for (const auto& p : after) {
    auto it = old.find(p.name());
    if (it == old.end()) continue;
    const auto& was = *it->second;
    if (was.adapter_hash != p.loaded.adapter_hash || was.adapter_source != p.loaded.adapter_source)
      news.rebuilt_adapters.push_back(p.name());
    if (was.tools_json_sha256 != p.loaded.tools_json_sha256) news.rebuilt_tools.push_back(p.name());
  }
  return news;
}

announcer::announcer(const server_config& config, const plugin_catalog& catalog, const webmcp_directory& webmcp,
                     extension_hub& hub, tools::server_events& events, net::task_group& tasks,
                     adapter_files_writer& adapters)
    : config_(config), catalog_(catalog), webmcp_(webmcp), hub_(hub), events_(events), tasks_(tasks), adapters_(adapters) {}

void announcer::greet(ext_connection& c) {
  if (sync_held_) return;
  adapters_.rewrite_adapter_files();
  c.send(json::dump(notification("sync.full", sync_full_params(config_, catalog_))));
  log::original_line(original_lines::sent_sync_full(catalog_.plugins.size()));
}

void announcer::release_sync() {
  if (!sync_held_) return;
  sync_held_ = false;
  if (hub_.connected()) {
    hub_.broadcast(notification("sync.full", sync_full_params(config_, catalog_)));
    log::original_line(original_lines::sent_sync_full(catalog_.plugins.size()));
  }
}

void announcer::plugins_changed() { hub_.broadcast(notification("plugins.changed", config_state(config_, catalog_, webmcp_, hub_))); }

void announcer::config_changed() {
  plugins_changed();
  events_.tools_changed();
}

void announcer::reloaded(const reload_news& news) {
  if (hub_.connected() && !sync_held_) {
    hub_.broadcast(notification("sync.full", sync_full_params(config_, catalog_)));
    log::original_line(original_lines::sent_sync_full(catalog_.plugins.size()));
    if (config_.dev)
      for (const auto& p : catalog_.plugins)
        if (std::ranges::count(news.rebuilt_adapters, p.name()) || std::ranges::count(news.rebuilt_tools, p.name()))
          hub_.broadcast(notification("plugin.update", plugins::sync_plugin_payload(p, permissions_of(config_.cfg, p),
                                                                                    catalog_.update_for(p))));
    plugins_changed();
    if (news.secret_rotated) tasks_.spawn(reload_extensions_later(), "extension.reload after a new secret");
  }
  events_.tools_changed();
}

net::awaitable<void> announcer::reload_extensions_later() {
  asio::steady_timer delay(co_await asio::this_coro::executor, extension_reload_delay);
  auto [ec] = co_await delay.async_wait(net::as_value);
  if (!ec) hub_.broadcast(json::object{{"jsonrpc", "2.0"}, {"method", "extension.reload"}});
}

}  // namespace opentabs::app
