// Plugin management requested over the extension channel (spec §3.5): plugin.search,
// plugin.install, plugin.updateFromRegistry, plugin.remove, plugin.removeBySpecifier,
// plugin.checkUpdates and folder.open.  npm does the work (argv from npm_commands, run by
// child_process on the io thread with a deadline); config.json edits go through the config
// store; after a change the server's reload announces it (sync.full, plugins.changed).
//
// Each request is answered later, on the connection that asked (by id: it may have gone
// away meanwhile).  Failures are JSON-RPC errors: −32602 for bad names and unknown
// plugins, −32603 for npm failures, timeouts and a busy manager (data.retryAfterMs).
// At most one install/update/remove runs at a time (npm's global directory is shared),
// and at most a few read-only npm queries.
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/announcer.hpp"
#include "app/extension_hub.hpp"
#include "app/reload_pipeline.hpp"
#include "app/plugin_catalog.hpp"
#include "app/server_config.hpp"
#include "json/json.hpp"
#include "net/asio.hpp"
#include "net/task_group.hpp"
#include "util/result.hpp"

namespace opentabs::app {

struct npm_timing {
  std::chrono::milliseconds change{60'000};          // npm install / update / uninstall
  std::chrono::milliseconds query{10'000};           // npm view / search, folder opener
  std::chrono::milliseconds uninstall_notice{5'000};  // plugin.uninstall to the extension
  std::chrono::milliseconds first_update_check{10'000};  // after start; later ones every
                                                         // updateCheckIntervalMinutes
  std::optional<std::chrono::milliseconds> update_interval;  // test knob: replaces the minutes
};

// Defaults, shortened by the test knobs OPENTABS_NPM_TIMEOUT_MS (change),
// OPENTABS_NPM_QUERY_TIMEOUT_MS (query) and OPENTABS_UPDATE_CHECK_INTERVAL_MS (first update
// check and the interval between checks, unless the config disables them with 0).
npm_timing npm_timing_from_env();

struct outdated_plugin {
  std::string name;  // npm package name
  std::string current_version;
  std::string latest_version;
  std::string update_command;
};

class plugin_manager {
 public:
  // Requests, update checks and the reapers of launched programs are tasks of `tasks`
  // (the server's background group: shutdown closes and awaits it).  After a change the
  // plugins are rediscovered through `reload` (which announces the result); a changed set
  // of known updates is announced through `announce` (plugins.changed carries them).
  plugin_manager(net::task_group& tasks, server_config& config, plugin_catalog& catalog, extension_hub& hub, std::filesystem::path home,
                 reload_pipeline& reload, announcer& announce, npm_timing timing = npm_timing_from_env());

  // Adds plugin.search, plugin.install, plugin.updateFromRegistry, plugin.remove,
  // plugin.removeBySpecifier, plugin.checkUpdates and folder.open (requests only) to the
  // hub's method table.  Each starts its work and is answered when it is done.
  void register_methods(extension_hub::method_table& table);

  // Checks npm for newer versions of npm-installed plugins shortly after start and then every
  // updateCheckIntervalMinutes (read from the config each time; 0 pauses the checks).
  // A /reload does not trigger a check.
  void start_update_checks();
  // Shutdown: ends the update checks (a request in flight ends at its own deadline).
  void stop();

 private:
  struct activity;
  struct found_plugin;

  using operation = net::awaitable<result<json::object>> (plugin_manager::*)(const json::object& params);
  void start(const ext_connection& c, std::string method, operation op, json::object params, json::value id);
  net::awaitable<void> serve(std::string connection_id, std::string method, operation op, json::object params,
                             json::value id);

  net::awaitable<result<json::object>> search(const json::object& params);
  net::awaitable<result<json::object>> install(const json::object& params);
  net::awaitable<result<json::object>> update(const json::object& params);
  net::awaitable<result<json::object>> remove(const json::object& params);
  net::awaitable<result<json::object>> remove_by_specifier(const json::object& params);
  net::awaitable<result<json::object>> check_updates();
  net::awaitable<result<json::object>> check_updates_request(const json::object&) { return check_updates(); }
  net::awaitable<void> update_check_loop();
  // Replaces the known updates; announces when they changed.
  void set_updates(std::map<std::string, plugins::update_info, std::less<>> found);
  void forget_update(const std::string& package_name);
  net::awaitable<result<json::object>> open_folder(const json::object& params);

  // One npm command; spawn failures and timeouts become errors, a non-zero exit does not.
  struct npm_run;
  net::awaitable<result<npm_run>> run_npm(std::vector<std::string> argv, std::chrono::milliseconds timeout,
                                          std::string what);
  // Best effort: plugin.uninstall to every connected extension, each bounded.
  net::awaitable<void> tell_extensions_uninstalled(std::string plugin);
  // By plugin name, or by any package name `name` may stand for.
  std::optional<found_plugin> find_installed(std::string_view name) const;
  result<bool> drop_local_plugin(const found_plugin& p);

  net::task_group& tasks_;
  asio::any_io_executor ex_;
  server_config& config_;    // its store writes the local plugin lists
  plugin_catalog& catalog_;  // it records the updates a check found
  extension_hub& hub_;
  std::filesystem::path home_;
  reload_pipeline& reload_;
  announcer& announce_;
  npm_timing timing_;
  std::shared_ptr<activity> activity_;
  asio::steady_timer update_timer_;
  bool stopping_ = false;
};

}  // namespace opentabs::app
