// Wiring of the running server: builds the state, hub, pipeline, MCP endpoints and router
// on one io_context, runs the reload pipeline (spec §6.8), watches config.json, handles
// signals, and shuts down gracefully.  Policy lives in the pieces; this file connects them.
#include "app/server.hpp"

#include <sys/resource.h>
#include <sys/stat.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "app/browser_tools.hpp"
#include "app/confirmations.hpp"
#include "app/extension_handlers.hpp"
#include "app/extension_hub.hpp"
#include "app/extension_install.hpp"
#include "app/payloads.hpp"
#include "app/platform_tools.hpp"
#include "app/plugin_manager.hpp"
#include "app/routes.hpp"
#include "app/server_state.hpp"
#include "app/tool_pipeline.hpp"
#include "app/webmcp_bridge.hpp"
#include "config/auth_secret.hpp"
#include "config/config_edits.hpp"
#include "config/permissions.hpp"
#include "mcp/conformance_tools.hpp"
#include "mcp/endpoint.hpp"
#include "mcp/gateway_tools.hpp"
#include "net/http_server.hpp"
#include "plugins/adapter_files.hpp"
#include "plugins/naming.hpp"
#include "plugins/payload.hpp"
#include "plugins/settings.hpp"
#include "tools/browser_catalog.hpp"
#include "util/clock.hpp"
#include "util/env.hpp"
#include "util/files.hpp"
#include "util/log.hpp"
#include "util/strings.hpp"

namespace opentabs::app {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

std::optional<long long> env_number(const char* name) { return env_integer(name, 0, max_env_milliseconds); }

bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v && (std::string_view(v) == "1" || std::string_view(v) == "true");
}

// Test knobs: every deadline can be shortened from the environment (never by sleeping).
net::limits limits_from_env() {
  net::limits l;
  if (auto v = env_number("OPENTABS_HTTP_HEAD_TIMEOUT_MS")) l.head_timeout = std::chrono::milliseconds(*v);
  if (auto v = env_number("OPENTABS_HTTP_BODY_TIMEOUT_MS")) l.body_timeout = std::chrono::milliseconds(*v);
  if (auto v = env_number("OPENTABS_HTTP_IDLE_TIMEOUT_MS")) l.keepalive_idle = std::chrono::milliseconds(*v);
  if (auto v = env_number("OPENTABS_WS_PING_AFTER_MS")) l.ws_ping_after = std::chrono::milliseconds(*v);
  if (auto v = env_number("OPENTABS_WS_PONG_TIMEOUT_MS")) l.ws_pong_timeout = std::chrono::milliseconds(*v);
  // Connection slots and the authenticated reserve (issue 13 item 7), shrunk by tests.
  if (auto v = env_number("OPENTABS_MAX_CONNECTIONS"); v && *v > 0) l.max_connections = static_cast<std::size_t>(*v);
  if (auto v = env_number("OPENTABS_RESERVED_CONNECTIONS"); v && *v >= 0)
    l.reserved_connections = static_cast<std::size_t>(*v);
  return l;
}

dispatch_timing timing_from_env() {
  dispatch_timing t;
  if (auto v = env_number("OPENTABS_DISPATCH_TIMEOUT_MS")) t.timeout = std::chrono::milliseconds(*v);
  if (auto v = env_number("OPENTABS_DISPATCH_CAP_MS")) t.cap = std::chrono::milliseconds(*v);
  return t;
}

bool is_loopback(const std::string& host) {
  return host == "127.0.0.1" || host == "::1" || host == "localhost" || starts_with(host, "127.");
}

// `npm root -g`, once per process: discovery of globally installed plugins.
std::optional<fs::path> npm_global_root() {
  static std::optional<fs::path> cached;
  static bool done = false;
  if (done) return cached;
  done = true;
  if (plugins::npm_discovery_disabled_by_env()) return std::nullopt;
  FILE* p = ::popen("timeout 10 npm root -g 2>/dev/null", "r");
  if (!p) return std::nullopt;
  char buf[4096];
  std::string out;
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  ::pclose(p);
  auto path = std::string(trim(out));
  if (!path.empty()) cached = fs::path(path);
  return cached;
}

using config::file_stamp;
using config::stamp_of;

json::object notification(std::string_view method, json::object params) {
  return json::object{{"jsonrpc", "2.0"}, {"method", json::str(method)}, {"params", std::move(params)}};
}

// The connection slots (net::limits::max_connections) only protect the extension's place
// if accept() does not run out of descriptors first: the soft limit is often 1024, so it
// is raised toward the hard limit (the server uses epoll, never select).
void raise_descriptor_limit() {
  struct rlimit lim{};
  constexpr rlim_t enough = 65536;
  if (::getrlimit(RLIMIT_NOFILE, &lim) != 0 || lim.rlim_cur >= std::min(lim.rlim_max, enough)) return;
  lim.rlim_cur = std::min(lim.rlim_max, enough);
  if (::setrlimit(RLIMIT_NOFILE, &lim) != 0) log::debug("could not raise the file descriptor limit");
}

}  // namespace

server_options options_from_env() {
  server_options o;
  if (auto v = env_number("PORT"); v && *v <= 65535) o.port = static_cast<std::uint16_t>(*v);
  if (const char* h = std::getenv("HOST"); h && *h) o.host = h;
  o.dev = env_flag("OPENTABS_DEV");
  return o;
}

// The whole running server.  Lives on the io thread.
class server_app {
 public:
  server_app(asio::io_context& io, const server_options& o, config::config_paths paths, fs::path home)
      : io_(io),
        options_(o),
        home_(home),
        state_(std::move(paths), home),
        hub_(io.get_executor(), timing_from_env()),
        confirm_(io.get_executor()),
        pipeline_(state_, hub_, confirm_, events_),
        platform_(state_, [this](const std::string& p, tools::permission level, const std::string& v) {
          return grant_reviewed(p, level, v);
        }),
        conformance_(o.conformance_mode ? std::make_unique<mcp::conformance_tools>(io.get_executor(), pipeline_, events_) : nullptr),
        mcp_(io.get_executor(), conformance_ ? static_cast<tools::tool_service&>(*conformance_) : pipeline_, events_,
             mcp::endpoint_options_from_env(false)),
        gateway_(io.get_executor(), pipeline_, events_, mcp::endpoint_options_from_env(true)),
        router_(state_, hub_, pipeline_, mcp_, gateway_, route_options{o.conformance_mode}),
        http_(io, limits_from_env(), [this](net::http_exchange& ex) { return router_.handle(ex); }),
        signals_(io, SIGINT, SIGTERM),
        watch_timer_(io),
        reload_timer_(io),
        plugin_manager_(io.get_executor(), state_, hub_, home,
                        plugin_manager::hooks{[this] { reload_now(true); },
                                              [this] { hub_.broadcast(notification("plugins.changed", config_state(state_, hub_))); }}) {
    state_.dev = o.dev;
    state_.skip_permissions = env_flag("OPENTABS_DANGEROUSLY_SKIP_PERMISSIONS");
    state_.server_source_path = OPENTABS_SOURCE_DIR;
    pipeline_.set_browser_handler(std::make_unique<browser_tools>(
        hub_, state_.paths.adapters_dir(), [this] { return output_locations_from_config(state_.cfg, state_.paths.dir, home_); }));
    pipeline_.set_platform_handler([this](const tools::tool_def& t, const json::object& args) -> net::awaitable<tools::call_result> {
      co_return platform_.call(t, args);
    });
    pipeline_.set_on_always_allow([this](const tools::tool_def& t) {
      auto r = state_.store.update([&](json::object& root) -> result<bool> {
        return config::set_tool_permission(root, t.plugin, t.base_name, tools::permission::auto_);
      });
      if (!r) log::warn("could not save \"always allow\": " + r.err().message);
      config_changed(false, r ? &r->cfg : nullptr);
    });
    hub_.set_on_open([this](ext_connection& c) {
      c.send(json::dump(notification("sync.full", sync_full_params(state_))));
    });
    pipeline_.set_webmcp_handler([this](const tools::tool_def& t, json::object args, tools::call_options& o,
                                        audit::audit_entry& e) { return webmcp_.call(t, std::move(args), o, e); });
    pipeline_.set_webmcp_validator([this](const tools::tool_def& t) { return webmcp_.validator_for(t); });
    hub_.set_on_close([this](const std::string& id) {
      webmcp_.connection_closed(id);
      if (!hub_.connected()) confirm_.settle_all(decision::disconnected);
    });
    register_extension_handlers(hub_.methods(), handler_context{
        state_, hub_, confirm_, events_, [this](bool rediscover, const config::config_file* saved) { config_changed(rediscover, saved); },
        [this] { return sync_full_params(state_); }, [this] { return config_state(state_, hub_); },
        [this](const std::string& plugin, const json::object& settings) { return settings_problem(plugin, settings); }});
    plugin_manager_.register_methods(hub_.methods());
    webmcp_.register_methods(hub_.methods());
    http_.set_head_screen([this](const codec::http_request& head) { return router_.screen(head); });
    router_.reload = [this]() -> net::awaitable<reload_outcome> { co_return co_await coalesced_reload(); };
    router_.apply_plugin_settings = [this](const std::string& plugin, const json::object& settings) {
      return store_plugin_settings(plugin, settings);
    };
  }

  int run() {
    if (options_.conformance_mode) {
      if (!is_loopback(options_.host)) {
        std::fprintf(stderr, "opentabs: --conformance-mode is refused on non-loopback address %s\n", options_.host.c_str());
        return 2;
      }
      log::warn("**************************************************************************");
      log::warn("CONFORMANCE MODE: /mcp accepts calls WITHOUT authentication and offers the");
      log::warn("MCP conformance suite's fixture tools. Never use this mode with a real browser.");
      log::warn("**************************************************************************");
    }
    if (auto st = config::ensure_config_dir(state_.paths); !st) {
      std::fprintf(stderr, "opentabs: %s\n", st.err().message.c_str());
      return 1;
    }
    if (auto removed = state_.store.remove_leftover_temp_files(); !removed)
      log::warn("could not remove leftover config.json temp files: " + removed.err().message);
    else if (*removed > 0)
      log::info("removed " + std::to_string(*removed) + " leftover config.json temp file(s)");
    config::ensure_extension_dirs(state_.paths);
    hub_.set_install_hint(state_.paths.extension_dir().string());
    auto installed = install_extension(extension_source_dir(), state_.paths.extension_dir());
    if (installed) {
      if (!installed->installed) {
        log::warn(foreign_extension_notice(state_.paths.extension_dir(), installed->foreign_label));
        hub_.set_install_hint(state_.paths.extension_dir().string() + " after `opentabs extension install --force` (it now holds " +
                              (installed->foreign_label.empty() ? std::string("another extension") : installed->foreign_label) +
                              ", which is backed up first)");
      }
      if (installed->first_install)
        log::info("extension installed in " + state_.paths.extension_dir().string() +
                  " — load it in Chrome: chrome://extensions → Developer mode → Load unpacked");
    } else {
      log::warn("extension not installed: " + installed.err().message);
    }
    auto first = reload_now(false);
    if (!first.ok) log::warn("initial load: " + first.error);
    plugin_manager_.start_update_checks();
    auto port = http_.listen(options_.host, options_.port);
    if (!port) {
      std::fprintf(stderr, "opentabs: %s\n", port.err().message.c_str());
      return port.err().code == "port_busy" ? kExitPortBusy : 1;
    }
    router_.set_port(*port);
    // The extension reads its default port from here when the user has not set one in the
    // side panel (an ephemeral or non-default port would otherwise be unreachable).
    if (auto st = write_file_atomic(state_.paths.extension_dir() / "server.json",
                                    json::dump(json::object{{"port", *port}}) + "\n", 0644);
        !st)
      log::warn("could not write extension/server.json: " + st.err().message);
    if (options_.on_listening) options_.on_listening(*port);
    std::printf("opentabs listening on http://%s:%u\n", options_.host == "::1" ? "[::1]" : options_.host.c_str(), *port);
    std::fflush(stdout);
    log::info("server " + std::string(OPENTABS_VERSION) + " ready on port " + std::to_string(*port) + " (" +
              std::to_string(state_.plugins.size()) + " plugins, " + std::to_string(state_.registry.all().size()) +
              " tools)");
    auto on_error = [](std::exception_ptr e) {
      if (!e) return;
      try {
        std::rethrow_exception(e);
      } catch (const std::exception& ex) {
        log::error(std::string("background task failed: ") + ex.what());
      }
    };
    asio::co_spawn(io_, http_.run(), on_error);
    asio::co_spawn(io_, watch_config(), on_error);
    signals_.async_wait([this](const asio::error_code& ec, int sig) {
      if (!ec) shutdown(sig);
    });
    io_.run();
    return exit_code_;
  }

 private:
  // ---- reload pipeline (spec §6.8) ----------------------------------------------------------

  reload_outcome reload_now(bool announce) {
    auto t0 = std::chrono::steady_clock::now();
    reload_outcome out;
    auto loaded = state_.store.load();
    if (!loaded) {
      // Keep serving with the last good configuration.
      out.ok = false;
      out.error = loaded.err().message;
      log::error(loaded.err().message + " — keeping the last good configuration");
    } else {
      for (const auto& w : loaded->warnings) log::warn(w);
      state_.cfg = loaded->cfg;
    }
    config_stamp_ = state_.store.last_stamp();
    auto old_secret = state_.secret;
    if (auto s = config::ensure_secret(state_.paths.auth_json())) {
      for (const auto& w : s->warnings) log::warn(w);
      if (s->generated) log::info("generated a new secret in " + state_.paths.auth_json().string());
      state_.secret = s->secret;
    } else {
      log::error(s.err().message);
    }
    plugins::remove_exec_leftovers(state_.paths.adapters_dir());

    plugins::discovery_input in;
    in.local_plugins = state_.cfg.local_plugins;
    in.local_plugin_dirs = state_.cfg.local_plugin_dirs;
    in.additional_allowed_directories = state_.cfg.additional_allowed_directories;
    in.config_dir = state_.paths.dir;
    in.home = home_;
    std::error_code ec;
    in.tmpdir = fs::temp_directory_path(ec);
    in.cwd = fs::current_path(ec);
    in.npm_global_root = npm_global_root();
    for (const auto& t : tools::browser_tool_catalog()) in.load.browser_tool_names.push_back(t.name);
    in.builtin_tool_names = in.load.browser_tool_names;
    for (const auto& t : platform_tool_defs()) in.builtin_tool_names.push_back(t.name);
    in.builtin_tool_names.emplace_back(mcp::gateway::list_tools_tool);
    in.builtin_tool_names.emplace_back(mcp::gateway::call_tool);
    auto found = plugins::discover(in);
    for (const auto& w : found.warnings) log::warn(w);

    std::map<std::string, std::string> old_hashes;
    for (const auto& p : state_.plugins) old_hashes[p.name()] = p.loaded.adapter_hash;
    std::vector<plugins::plugin> next;
    for (auto& l : found.plugins) {
      for (const auto& w : l.warnings) log::warn("plugin " + l.name + ": " + w);
      auto it = state_.cfg.settings.find(l.name);
      next.push_back(plugins::make_plugin(std::move(l), it == state_.cfg.settings.end() ? nullptr : &it->second));
      for (const auto& w : next.back().settings.warnings) log::warn("plugin " + next.back().name() + ": " + w);
    }
    for (const auto& e : found.errors) log::warn("plugin " + e.specifier + ": " + e.error);
    state_.plugins = std::move(next);
    state_.discovery_errors = std::move(found.errors);

    // Reviews of plugins whose version changed no longer hold (spec §2.2).
    std::map<std::string, std::string> versions;
    for (const auto& p : state_.plugins) versions[p.name()] = p.loaded.version;
    std::vector<std::string> reset;
    auto r = state_.store.update([&](json::object& root) -> result<bool> {
      reset = config::reset_stale_reviews(root, versions);
      return !reset.empty();
    });
    if (r && !reset.empty()) {
      state_.cfg = r->cfg;
      for (const auto& n : reset) log::info("plugin " + n + " changed version: its review was reset (permission off)");
    }
    // config_stamp_ stays the stamp of the version load() read: the plugins above were
    // built from it, and if anyone (this reset included) wrote since, the watcher reloads
    // once more instead of missing that change.

    std::vector<const plugins::loaded_plugin*> loaded_ptrs;
    for (const auto& p : state_.plugins) loaded_ptrs.push_back(&p.loaded);
    auto files = plugins::write_adapter_files(state_.paths.adapters_dir(), loaded_ptrs);
    for (const auto& e : files.errors) log::warn("adapter files: " + e);

    // toolNames: the spelling tools/list and the audit log use (both stay callable).
    const bool double_underscore = state_.cfg.tool_names == config::tool_name_style::double_underscore;
    std::vector<tools::tool_def> plugin_tools;
    for (auto& p : state_.plugins)
      for (auto& t : p.tools) {
        t.name = double_underscore ? t.plugin + "__" + t.base_name : plugins::canonical_tool_name(t.plugin, t.base_name);
        plugin_tools.push_back(t);
      }
    state_.registry.rebuild(std::move(plugin_tools), tools::browser_tool_catalog(), platform_tool_defs());

    out.plugins = state_.plugins.size();
    out.duration_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    ++state_.reloads.count;
    state_.reloads.last_timestamp_ms = now_epoch_ms();
    state_.reloads.last_duration_ms = out.duration_ms;

    if (announce && hub_.connected()) {
      hub_.broadcast(notification("sync.full", sync_full_params(state_)));
      if (state_.dev) {
        for (const auto& p : state_.plugins) {
          auto it = old_hashes.find(p.name());
          if (it != old_hashes.end() && it->second != p.loaded.adapter_hash)
            hub_.broadcast(notification("plugin.update", plugins::sync_plugin_payload(p, permissions_of(state_, p), state_.update_for(p))));
        }
      }
      hub_.broadcast(notification("plugins.changed", config_state(state_, hub_)));
      if (!old_secret.empty() && old_secret != state_.secret) schedule_extension_reload();
    }
    if (announce) events_.tools_changed();
    return out;
  }

  void schedule_extension_reload() {
    auto t = std::make_shared<asio::steady_timer>(io_, 500ms);
    t->async_wait([this, t](const asio::error_code& ec) {
      if (!ec) hub_.broadcast(json::object{{"jsonrpc", "2.0"}, {"method", "extension.reload"}});
    });
  }

  // POST /reload: callers within 500 ms share one reload.
  net::awaitable<reload_outcome> coalesced_reload() {
    if (reload_waiting_) {
      auto gen = reload_generation_;
      while (reload_generation_ == gen) {
        reload_timer_.expires_at(asio::steady_timer::time_point::max());
        co_await reload_done_wait();
      }
      co_return last_reload_;
    }
    reload_waiting_ = true;
    asio::steady_timer debounce(io_, 500ms);
    co_await debounce.async_wait(net::as_value);
    last_reload_ = reload_now(true);
    reload_waiting_ = false;
    ++reload_generation_;
    reload_timer_.cancel();
    co_return last_reload_;
  }

  net::awaitable<void> reload_done_wait() { co_await reload_timer_.async_wait(net::as_value); }

  // A config change the server made itself (permissions, settings, skip toggle); `saved` is
  // the config it just wrote, or null when only runtime state changed.
  void config_changed(bool rediscover, const config::config_file* saved) {
    if (rediscover) {
      reload_now(true);
      return;
    }
    if (saved) {
      // `saved` came from the update just made, which re-read config.json under the lock, so
      // it holds every other writer's earlier change too; its stamp is the version written.
      // Restamping from the disk here could swallow a change another process made since.
      state_.cfg = *saved;
      config_stamp_ = state_.store.last_stamp();
    }
    hub_.broadcast(notification("plugins.changed", config_state(state_, hub_)));
    events_.tools_changed();
  }

  std::string grant_reviewed(const std::string& plugin, tools::permission level, const std::string& version) {
    config::plugin_permission_change change;
    change.level = level;
    change.reviewed_version = version;
    auto r = state_.store.update([&](json::object& root) -> result<bool> { return config::set_plugin_permission(root, plugin, change); });
    if (!r) return "Could not save config.json: " + r.err().message;
    config_changed(false, &r->cfg);
    return {};
  }

  // Settings for a plugin that is not loaded are stored unvalidated (spec §3.5: they may be
  // set before the plugin is installed), but only under a name a plugin can have and within
  // a size that keeps config.json small.
  static std::optional<std::string> unloaded_plugin_settings_problem(const std::string& plugin, const json::object& settings) {
    constexpr std::size_t max_settings_bytes = 64 * 1024;
    if (!plugins::is_valid_plugin_name(plugin))
      return "\"" + plugin.substr(0, 64) + (plugin.size() > 64 ? "…" : "") +
             "\" is not a plugin name (lowercase letters, digits and hyphens)";
    if (auto size = json::dump(settings).size(); size > max_settings_bytes)
      return "settings are " + std::to_string(size) + " bytes of JSON; the limit is " + std::to_string(max_settings_bytes);
    return std::nullopt;
  }

  std::optional<std::string> settings_problem(const std::string& plugin, const json::object& settings) {
    const auto* p = state_.find_plugin(plugin);
    if (!p) return unloaded_plugin_settings_problem(plugin, settings);
    auto v = plugins::validate_settings(p->loaded.config_fields, settings);
    if (!v) {
      auto msg = v.err().message;
      const std::string prefix = "Settings validation failed: ";
      if (starts_with(msg, prefix)) msg = msg.substr(prefix.size());
      return msg;
    }
    return std::nullopt;
  }

  std::string store_plugin_settings(const std::string& plugin, const json::object& settings) {
    json::object values = settings;
    if (const auto* p = state_.find_plugin(plugin)) {
      auto v = plugins::validate_settings(p->loaded.config_fields, settings);
      if (!v) return v.err().message;
      values = std::move(*v);
    } else if (auto problem = unloaded_plugin_settings_problem(plugin, settings)) {
      return "Settings validation failed: " + *problem;
    }
    auto r = state_.store.update([&](json::object& root) -> result<bool> { return config::set_plugin_settings(root, plugin, values); });
    if (!r) return "Could not save config.json: " + r.err().message;
    reload_now(true);
    return {};
  }

  // What the dev watcher compares between polls: per plugin folder its package.json and
  // dist/ build outputs.  Folders come from the loaded local plugins, the configured
  // localPlugins (also those that failed to load or are not built yet, so a fix or a first
  // build is picked up) and the children of localPluginDirs (so a new plugin folder is too).
  static constexpr std::size_t kDevStampsPerPlugin = 3;
  std::map<std::string, file_stamp> dev_stamps() const {
    constexpr std::size_t max_children = 1000;
    std::map<std::string, file_stamp> out;
    auto stamp_plugin_dir = [&](const fs::path& dir) {
      for (const char* f : {"package.json", "dist/adapter.iife.js", "dist/tools.json"})
        out[(dir / f).string()] = stamp_of(dir / f);
    };
    for (const auto& p : state_.plugins)
      if (p.loaded.source == "local") stamp_plugin_dir(p.loaded.source_path);
    for (const auto& spec : state_.cfg.local_plugins)
      if (auto r = plugins::resolve_specifier(spec, home_, state_.paths.dir); r.path) stamp_plugin_dir(*r.path);
    for (const auto& spec : state_.cfg.local_plugin_dirs) {
      auto r = plugins::resolve_specifier(spec, home_, state_.paths.dir);
      if (!r.path) continue;
      std::error_code ec;
      std::size_t seen = 0;
      for (auto it = fs::directory_iterator(*r.path, ec); !ec && it != fs::directory_iterator() && seen < max_children;
           it.increment(ec), ++seen)
        if (it->is_directory(ec)) stamp_plugin_dir(it->path());
    }
    return out;
  }

  // config.json edited by hand or by another process: apply without a restart (all modes);
  // in dev mode also a rebuilt dist/ of a local plugin.  mtime polling keeps this portable
  // and cheap (a few stat calls per interval).
  net::awaitable<void> watch_config() {
    auto interval = std::chrono::milliseconds(env_number("OPENTABS_MTIME_POLL_MS").value_or(2000));
    if (interval < 50ms) interval = 50ms;
    auto plugin_stamps = state_.dev ? dev_stamps() : std::map<std::string, file_stamp>{};
    state_.watcher.watched_plugins = plugin_stamps.size() / kDevStampsPerPlugin;
    while (!stopping_) {
      watch_timer_.expires_after(interval);
      auto [ec] = co_await watch_timer_.async_wait(net::as_value);
      if (ec || stopping_) co_return;
      state_.watcher.last_poll_ms = now_epoch_ms();
      bool config_moved = stamp_of(state_.store.path()) != config_stamp_;
      bool dist_moved = false;
      if (state_.dev) {
        auto now = dev_stamps();
        dist_moved = now != plugin_stamps;
        plugin_stamps = std::move(now);
        state_.watcher.watched_plugins = plugin_stamps.size() / kDevStampsPerPlugin;
      }
      if (!config_moved && !dist_moved) continue;
      ++state_.watcher.poll_detections;
      log::info(config_moved ? "config.json changed on disk; reloading" : "a local plugin was rebuilt; reloading");
      reload_now(true);
      if (state_.dev) plugin_stamps = dev_stamps();
    }
  }

  void shutdown(int sig) {
    if (stopping_) return;
    stopping_ = true;
    log::info(std::string("received ") + (sig == SIGINT ? "SIGINT" : "SIGTERM") + ", shutting down");
    watch_timer_.cancel();
    confirm_.settle_all(decision::shutdown);
    hub_.shutdown();
    mcp_.shutdown();
    gateway_.shutdown();
    // Let the close frames and final answers reach their sockets, then stop.
    auto grace = std::make_shared<asio::steady_timer>(io_, 200ms);
    grace->async_wait([this, grace](const asio::error_code&) {
      http_.stop();
      // Stop as soon as every connection coroutine has ended (their sockets are closed
      // now); other coroutines (session sweeps, watchers) have nothing left to deliver.
      // A connection stuck past 2 s does not hold the process.
      asio::co_spawn(io_, [this]() -> net::awaitable<void> {
        asio::steady_timer tick(io_);
        const auto hard = std::chrono::steady_clock::now() + 2s;
        while (http_.connection_count() > 0 && std::chrono::steady_clock::now() < hard) {
          tick.expires_after(10ms);
          co_await tick.async_wait(net::as_value);
        }
        io_.stop();
      }, asio::detached);
    });
    signals_.cancel();
  }

  asio::io_context& io_;
  server_options options_;
  fs::path home_;
  server_state state_;
  tools::server_events events_;
  extension_hub hub_;
  confirmations confirm_;
  tool_pipeline pipeline_;
  platform_tools platform_;
  webmcp_bridge webmcp_{state_, hub_, events_, [this] {
    hub_.broadcast(notification("plugins.changed", config_state(state_, hub_)));
  }};
  std::unique_ptr<mcp::conformance_tools> conformance_;
  mcp::endpoint mcp_;
  mcp::endpoint gateway_;
  router router_;
  net::http_server http_;
  asio::signal_set signals_;
  asio::steady_timer watch_timer_;
  asio::steady_timer reload_timer_;
  plugin_manager plugin_manager_;
  file_stamp config_stamp_;
  bool stopping_ = false;
  bool reload_waiting_ = false;
  std::uint64_t reload_generation_ = 0;
  reload_outcome last_reload_;
  int exit_code_ = 0;
};

int run_server(const server_options& options) {
  log::init_from_env();
  std::signal(SIGPIPE, SIG_IGN);
  raise_descriptor_limit();
  auto home = config::home_directory();
  fs::path home_dir = home ? *home : fs::path("/");
  config::config_paths paths;
  if (!options.config_dir.empty()) {
    paths.dir = fs::absolute(options.config_dir);
  } else {
    auto p = config::config_paths_from_environment();
    if (!p) {
      std::fprintf(stderr, "opentabs: %s\n", p.err().message.c_str());
      return 1;
    }
    paths = *p;
  }
  asio::io_context io(1);
  server_app app(io, options, paths, home_dir);
  return app.run();
}

}  // namespace opentabs::app
