// Wiring of the running server: builds the parts on one io_context and connects them by
// name — the announcer (every notice to extensions and MCP sessions), the reload pipeline
// (spec §6.8), plugin settings, the config watcher, the hub, tool pipeline, MCP endpoints
// and router — then starts up, handles signals and shuts down: background work lives in
// one task group that shutdown closes and awaits, with a deadline, and work that blocks
// runs on one blocking pool (net/blocking_pool.hpp) handed to the parts that need it.
// Policy lives in the pieces; this file connects them.
#include "app/server.hpp"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>

#include "app/announcer.hpp"
#include "app/browser_prompts.hpp"
#include "app/browser_tools.hpp"
#include "app/completion_sources.hpp"
#include "app/config_watcher.hpp"
#include "app/confirmations.hpp"
#include "app/extension_handlers.hpp"
#include "app/extension_hub.hpp"
#include "app/extension_install.hpp"
#include "app/original_lines.hpp"
#include "app/payloads.hpp"
#include "app/platform_tools.hpp"
#include "app/plugin_manager.hpp"
#include "app/plugin_settings.hpp"
#include "app/reload_pipeline.hpp"
#include "app/routes.hpp"
#include "app/server_resources.hpp"
#include "app/tab_changes.hpp"
#include "app/server_state.hpp"
#include "app/plugin_backend.hpp"
#include "app/tool_pipeline.hpp"
#include "app/webmcp_bridge.hpp"
#include "config/config_paths.hpp"
#include "mcp/conformance_prompts.hpp"
#include "mcp/conformance_resources.hpp"
#include "mcp/conformance_tools.hpp"
#include "mcp/endpoint.hpp"
#include "net/blocking_pool.hpp"
#include "net/http_server.hpp"
#include "net/net_failure.hpp"
#include "net/task_group.hpp"
#include "platform/process_setup.hpp"
#include "platform/signals.hpp"
#include "plugins/adapter_files.hpp"
#include "plugins/bounded_load.hpp"
#include "util/background_sync.hpp"
#include "util/env.hpp"
#include "util/files.hpp"
#include "util/log.hpp"
#include "util/original_log.hpp"
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
  if (auto v = env_number("OPENTABS_HTTP_WRITE_TIMEOUT_MS")) l.write_timeout = std::chrono::milliseconds(*v);
  if (auto v = env_number("OPENTABS_WS_PING_AFTER_MS")) l.ws_ping_after = std::chrono::milliseconds(*v);
  if (auto v = env_number("OPENTABS_WS_PONG_TIMEOUT_MS")) l.ws_pong_timeout = std::chrono::milliseconds(*v);
  // Connection slots and the authenticated reserve, shrunk by tests.
  if (auto v = env_number("OPENTABS_MAX_CONNECTIONS"); v && *v > 0) l.max_connections = static_cast<std::size_t>(*v);
  if (auto v = env_number("OPENTABS_RESERVED_CONNECTIONS"); v && *v >= 0)
    l.reserved_connections = static_cast<std::size_t>(*v);
  if (auto v = env_number("OPENTABS_CONNECTIONS_PER_CLIENT"); v && *v > 0) l.connections_per_caller = static_cast<std::size_t>(*v);
  // The back-off of an accept that found no descriptor (a test makes it long to show that a
  // connection ending, not the timer, is what lets the next one in).
  if (auto v = env_number("OPENTABS_ACCEPT_BACKOFF_MS"); v && *v > 0)
    l.accept_backoff_min = l.accept_backoff_max = std::chrono::milliseconds(*v);
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

// The connection slots (net::limits::max_connections) only protect the extension's place
// if accept() does not run out of descriptors first: the soft limit is often 1024, so it
// is raised toward the hard limit (the server uses epoll, never select).
void raise_descriptor_limit() {
  if (!platform::raise_open_file_limit(65536)) log::debug("could not raise the file descriptor limit");
}

}  // namespace

server_options options_from_env() {
  server_options o;
  if (auto v = env_number("PORT"); v && *v <= 65535) o.port = static_cast<std::uint16_t>(*v);
  if (const char* h = std::getenv("HOST"); h && *h) o.host = h;
  o.dev = env_flag("OPENTABS_DEV");
  return o;
}

// The whole running server: its parts, built in dependency order on one io_context, each
// told whom to call by name; start-up; and the shutdown sequence.  It is the hub's
// connection_listener and the announcer's adapter_files_writer itself: what a connection's
// coming and going means, and who writes the adapter files, involve parts built after them.
class server_app final : connection_listener, adapter_files_writer {
 public:
  server_app(asio::io_context& io, const server_options& o, config::config_paths paths, fs::path home)
      : io_(io),
        options_(o),
        home_(home),
        state_(std::move(paths), home),
        tasks_(io.get_executor()),
        pool_(io.get_executor(), pool_threads, plugins::kMaxStuckLoads),
        hub_(io.get_executor(), timing_from_env(), *this),
        confirm_(io.get_executor(), state_.audit),
        announce_(state_.config, state_.catalog, state_.webmcp, hub_, events_, tasks_, *this),
        reload_(io.get_executor(), pool_, state_.config, state_.catalog, state_.stats.reloads, announce_, home,
                [this] { flush_derived_files(); }),
        settings_(state_.config, state_.catalog, reload_),
        platform_(state_.catalog, settings_),
        webmcp_(state_.webmcp, state_.catalog.registry, hub_, announce_, pool_),
        browser_tools_(hub_, state_.config.paths.adapters_dir(),
                       [this] { return output_locations_from_config(state_.config.cfg, state_.config.paths.dir, home_); }),
        plugin_backend_(state_.catalog, hub_),
        browser_backend_(state_.catalog, hub_, browser_tools_, state_.stats.clients),
        pipeline_(state_.config, state_.catalog, state_.audit, hub_, confirm_, settings_,
                  tool_backends{plugin_backend_, browser_backend_, platform_, webmcp_}),
        conformance_(o.conformance_mode ? std::make_unique<mcp::conformance_tools>(io.get_executor(), pipeline_, events_) : nullptr),
        completions_(hub_, state_.catalog, state_.webmcp, pipeline_),
        prompts_(pipeline_, state_.catalog, state_.webmcp, state_.audit, completions_),
        conformance_prompts_(o.conformance_mode ? std::make_unique<mcp::conformance_prompts>(prompts_) : nullptr),
        resources_(state_, hub_, pipeline_,
                   [this] {
                     auto in_use = mcp_.client_activity();
                     in_use += gateway_.client_activity();
                     return health_payload(state_, hub_, mcp_.session_count(), in_use);
                   }),
        conformance_resources_(o.conformance_mode ? std::make_unique<mcp::conformance_resources>(resources_) : nullptr),
        tab_changes_(events_, tasks_,
                     std::chrono::milliseconds(env_number("OPENTABS_MCP_RESOURCE_DEBOUNCE_MS").value_or(tab_changes::default_debounce.count()))),
        mcp_(io.get_executor(), conformance_ ? static_cast<tools::tool_service&>(*conformance_) : pipeline_, events_,
             endpoint_options(false)),
        gateway_(io.get_executor(), pipeline_, events_, endpoint_options(true)),
        router_(state_, hub_, pipeline_, reload_, settings_, mcp_, gateway_, route_options{o.conformance_mode}),
        http_(io, limits_from_env(), router_),
        signals_(io),
        watcher_(io.get_executor(), state_.config, state_.catalog, state_.stats.watcher, reload_, home,
                 std::chrono::milliseconds(
                     env_number("OPENTABS_MTIME_POLL_MS")
                         .value_or((o.dev ? config_watcher::dev_interval : config_watcher::default_interval).count()))),
        plugin_manager_(tasks_, state_.config, state_.catalog, hub_, home, reload_, announce_) {
    state_.config.dev = o.dev;
    // Caught from construction on, so that none of them kills a starting server.
    for (const auto& sig : platform::server_signals()) signals_.add(sig.number);
    if (auto v = env_number("OPENTABS_EXTENSION_WAIT_MS")) hub_.set_reconnect_wait(std::chrono::milliseconds(*v));
    state_.config.skip_permissions = env_flag("OPENTABS_DANGEROUSLY_SKIP_PERMISSIONS");
    state_.config.server_source_path = OPENTABS_SOURCE_DIR;
    register_extension_handlers(hub_.methods(), handler_context{state_.config, state_.catalog, state_.webmcp, state_.stats.plugin_logs, hub_, confirm_, events_, reload_, settings_});
    plugin_manager_.register_methods(hub_.methods());
    webmcp_.register_methods(hub_.methods());
  }

  int run() {
    if (options_.conformance_mode && !is_loopback(options_.host)) {
      std::fprintf(stderr, "opentabs: --conformance-mode is refused on non-loopback address %s\n", options_.host.c_str());
      return 2;
    }
    if (options_.conformance_mode) warn_conformance_mode();
    if (auto st = config::ensure_config_dir(state_.config.paths); !st) {
      std::fprintf(stderr, "opentabs: %s\n", st.err().message.c_str());
      return 1;
    }
    open_background_sync();
    if (auto removed = state_.config.store.remove_leftover_temp_files(); !removed)
      log::warn("could not remove leftover config.json temp files: " + removed.err().message);
    else if (*removed > 0)
      log::info("removed " + std::to_string(*removed) + " leftover config.json temp file(s)");
    prepare_extension_folder();
    reload_.defer_adapter_files();  // written with the extension copy, once the server listens
    auto first = reload_.reload(reload_cause::start);
    if (!first.ok) log::warn("initial load: " + first.error);
    // Start-up may wait for config.json.lock (nothing is served yet); from here on the io
    // thread never does.
    reload_.defer_locked_config_writes();
    plugin_manager_.start_update_checks();
    auto port = http_.listen(options_.host, options_.port);
    if (!port) {
      std::fprintf(stderr, "opentabs: %s\n", port.err().message.c_str());
      return port.err().is(net::net_failure::port_busy) ? kExitPortBusy : 1;
    }
    router_.set_port(*port);
    write_server_json(*port);
    if (options_.on_bound) options_.on_bound(*port);
    if (durable_) durable_->request();  // the first load's adapters, server.json
    start_extension_copy(*port);
    tasks_.spawn(http_.run(), "accept loop");
    tasks_.spawn(watcher_.run(), "config watcher");
    await_signal();
    io_.run();
    return exit_code_;
  }

 private:
  // A new connection is greeted (sync.full); a closed one takes its WebMCP tools with it,
  // and the last one the confirmations that wait for an answer from the side panel.
  void connection_opened(ext_connection& c) override { announce_.greet(c); }
  void connection_closed(const std::string& id) override {
    webmcp_.connection_closed(id);
    if (!hub_.connected()) confirm_.settle_all(verdict{decision::disconnected, audit::decided_by::disconnected});
  }
  void rewrite_adapter_files() override { reload_.rewrite_adapter_files(); }

  static void warn_conformance_mode() {
    log::warn("**************************************************************************");
    log::warn("CONFORMANCE MODE: /mcp accepts calls WITHOUT authentication and offers the");
    log::warn("MCP conformance suite's fixture tools. Never use this mode with a real browser.");
    log::warn("**************************************************************************");
  }

  // Files derived from others (extension copy, adapters, server.json) are flushed by one
  // file-system flush on a thread of its own once the server is ready (util/background_sync.hpp);
  // without it (the folder cannot be opened), each is flushed before start-up goes on.
  void open_background_sync() {
    auto d = background_sync::open(state_.config.paths.dir);
    if (d) durable_ = std::move(*d);
    else log::warn("flushing synchronously: " + d.err().message);
  }

  // After a reload wrote adapter files (reload_pipeline calls it).
  void flush_derived_files() {
    if (durable_) durable_->request();
    else if (auto st = sync_filesystem(state_.config.paths.dir); !st) log::warn(st.err().message);
  }

  // The extension reads its default port from here when the user has not set one in the
  // side panel (an ephemeral or non-default port would otherwise be unreachable).
  // Rewritten at every start: flushed with the other derived files.
  void write_server_json(std::uint16_t port) {
    const auto server_json = state_.config.paths.extension_dir() / "server.json";
    const auto port_text = json::dump(json::object{{"port", port}}) + "\n";
    if (auto st = durable_ ? write_file_unsynced(server_json, port_text, 0644) : write_file_atomic(server_json, port_text, 0644);
        !st)
      log::warn("could not write extension/server.json: " + st.err().message);
  }

  // The endpoints' options from the environment, with the sessions' coroutines in tasks_.
  mcp::endpoint_options endpoint_options(bool gateway) {
    auto o = mcp::endpoint_options_from_env(gateway);
    o.tasks = &tasks_;
    o.request_states = request_states_;
    if (!gateway) o.prompts = conformance_prompts_ ? static_cast<mcp::prompt_service*>(conformance_prompts_.get()) : &prompts_;
    if (!gateway) o.resources = conformance_resources_ ? static_cast<tools::resource_service*>(conformance_resources_.get()) : &resources_;
    return o;
  }

  // The extension folder and the hint given to users, before anything else needs them.
  void prepare_extension_folder() {
    config::ensure_extension_dirs(state_.config.paths);
    hub_.set_install_hint(state_.config.paths.extension_dir().string());
  }

  // The extension copy Chrome loads (spec §6.1), made once the server listens: creating its
  // ~50 files is most of a first start's work, and requests need none of them.
  // Until it is done no sync.full goes out (it carries the copy's hash), and the server
  // does not yet say it is ready (the "listening" line, on_listening, "ready" in the log):
  // whoever loads the extension when told so finds it complete.  The adapter files of the
  // first load are written with it; a reload or a greeting that writes adapter files
  // meanwhile has its write made once these are (reload_pipeline::deferred_adapter_files_written).
  void start_extension_copy(std::uint16_t port) {
    announce_.hold_sync();
    tasks_.spawn(copy_extension(port, reload_.take_deferred_adapter_files()), "extension copy");
  }

  // The copy's file work runs on the pool; its waits (the test delay, the retries of a copy
  // that ran out of descriptors while connections arrived) are on a timer that shutdown ends.
  net::awaitable<void> copy_extension(std::uint16_t port, std::vector<plugins::adapter_file> adapters) {
    install_options options;
    options.defer_sync = durable_ != nullptr;
    auto install = [options, source = extension_source_dir(), target = state_.config.paths.extension_dir()] {
      return install_extension(source, target, options);
    };
    asio::steady_timer pause(io_, std::chrono::milliseconds(env_number("OPENTABS_TEST_EXTENSION_COPY_DELAY_MS").value_or(0)));
    auto stop = tasks_.on_close([&pause] { pause.cancel(); });
    co_await pause.async_wait(net::as_value);
    if (stopping_) co_return;
    auto installed = co_await pool_.run(install);
    const auto give_up = net::steady_clock::now() + copy_retry_limit;
    while (!installed && out_of_descriptors(installed.err()) && !stopping_ && net::steady_clock::now() < give_up) {
      pause.expires_after(copy_retry_interval);
      co_await pause.async_wait(net::as_value);
      installed = co_await pool_.run(install);
    }
    // The first load's adapter files (the extension reads them once sync.full names them).
    auto write_adapters = [adapters = std::move(adapters), dir = state_.config.paths.adapters_dir(), flush = !options.defer_sync] {
      auto files = plugins::write_adapter_file_list(dir, adapters);
      if (flush && (!files.written.empty() || !files.removed.empty()))
        if (auto st = sync_filesystem(dir); !st) files.errors.push_back(st.err().message);
      return files;
    };
    auto files = co_await pool_.run(std::move(write_adapters));
    extension_copied(std::move(installed), files, port);
  }

  // On the io thread, once the copy ended: its outcome, then the server says it is ready.
  void extension_copied(result<install_report> installed, const plugins::adapter_write_report& adapters, std::uint16_t port) {
    // What the copy's allocations left in the worker's malloc arena (file contents,
    // ~0.1 MiB) goes back to the system rather than into the idle RSS.
    platform::release_free_memory();
    if (!installed) {
      log::warn("extension not installed: " + installed.err().message);
    } else {
      if (!installed->installed) {
        log::warn(foreign_extension_notice(state_.config.paths.extension_dir(), installed->foreign_label));
        hub_.set_install_hint(state_.config.paths.extension_dir().string() + " after `opentabs extension install --force` (it now holds " +
                              (installed->foreign_label.empty() ? std::string("another extension") : installed->foreign_label) +
                              ", which is backed up first)");
      }
      if (installed->first_install)
        log::info("extension installed in " + state_.config.paths.extension_dir().string() +
                  " — load it in Chrome: chrome://extensions → Developer mode → Load unpacked");
      if (installed->wrote && durable_) durable_->request();
    }
    for (const auto& e : adapters.errors) log::warn("adapter files: " + e);
    if ((!adapters.written.empty() || !adapters.removed.empty()) && durable_) durable_->request();
    reload_.deferred_adapter_files_written();
    announce_.release_sync();
    if (stopping_) return;
    if (options_.on_listening) options_.on_listening(port);
    std::printf("opentabs listening on http://%s:%u\n", options_.host == "::1" ? "[::1]" : options_.host.c_str(), port);
    std::fflush(stdout);
    log::original_line(original_lines::listening(OPENTABS_VERSION, options_.host, port, options_.dev));
    log::info("server " + std::string(OPENTABS_VERSION) + " ready on port " + std::to_string(port) + " (" +
              std::to_string(state_.catalog.plugins.size()) + " plugins, " + std::to_string(state_.catalog.registry.all().size()) +
              " tools)");
  }

  static constexpr auto copy_retry_interval = 50ms;
  static constexpr auto copy_retry_limit = 10s;
  // The pool's workers: discovery may wait up to a plugin's read deadline, and the second
  // worker keeps the extension copy and schema compiles going meanwhile.
  static constexpr std::size_t pool_threads = 2;

  // Every signal a user or a tool sends on purpose has a deliberate effect (platform/signals.hpp
  // lists them per OS).  On POSIX SIGINT, SIGTERM and SIGQUIT stop the server cleanly; SIGUSR1
  // and SIGHUP reload it (the original's dev mode restarts its worker on SIGUSR1, and its
  // tests send it to simulate a code change); SIGUSR2 is logged and ignored.  SIGPIPE is
  // ignored process-wide (run_server).
  void await_signal() {
    signals_.async_wait([this](const asio::error_code& ec, int sig) {
      if (ec || stopping_) return;
      const auto* known = platform::find_server_signal(sig);
      const auto meaning = known ? known->meaning : platform::signal_meaning::stop;
      if (meaning == platform::signal_meaning::reload) {
        reload_on_signal(sig);
      } else if (meaning == platform::signal_meaning::ignore) {
        log::info("received SIGUSR2: ignored (SIGUSR1 or SIGHUP reloads, SIGTERM stops)");
      } else {
        shutdown(sig);
        return;
      }
      await_signal();
    });
  }

  // Discovery reads plugin files, which may sit on a slow filesystem: it runs on the blocking
  // pool like POST /reload's, and the io thread serves meanwhile.
  void reload_on_signal(int sig) {
    tasks_.spawn(reload_for_signal(signal_name(sig)), "reload on signal");
  }

  net::awaitable<void> reload_for_signal(std::string name) {
    if (options_.dev) log::original_line(original_lines::hot_reload_detected(name));
    log::info("received " + name + ": reloading config.json and plugins");
    auto outcome = co_await reload_.reload_off_thread(reload_cause::signal);
    if (!outcome.ok) log::warn("reload on " + name + ": " + outcome.error);
  }

  static std::string signal_name(int sig) {
    if (const auto* known = platform::find_server_signal(sig)) return std::string(known->name);
    return "signal " + std::to_string(sig);
  }

  void shutdown(int sig) {
    if (stopping_) return;
    stopping_ = true;
    log::info("received " + signal_name(sig) + ", shutting down");
    watcher_.stop();
    plugin_manager_.stop();
    confirm_.settle_all(verdict{decision::shutdown, audit::decided_by::shutdown});
    hub_.shutdown();
    mcp_.shutdown();
    gateway_.shutdown();
    signals_.cancel();
    // The top of the process's coroutines: it ends the io_context itself.
    asio::co_spawn(io_, finish_shutdown(), net::log_failure("shutdown"));
  }

  // Lets the close frames and final answers reach their sockets, then stops accepting and
  // stops as soon as every connection and background task has ended (the watcher and the
  // update checks were told to stop; an npm command still running has its own deadline).
  // Other coroutines (MCP session sweeps) have nothing left to deliver.  Whatever is still
  // running at the deadline does not hold the process: it is destroyed with the io_context
  // (a child process still running is killed then, see child_process.cpp).
  net::awaitable<void> finish_shutdown() {
    asio::steady_timer grace(io_, shutdown_grace);
    co_await grace.async_wait(net::as_value);
    http_.stop();
    tasks_.close();
    const auto deadline = net::steady_clock::now() + shutdown_deadline;
    bool closed = co_await http_.wait_closed(deadline);
    bool ended = co_await tasks_.wait(deadline);
    if (!closed || !ended)
      log::warn("shutdown: " + std::to_string(http_.connection_count()) + " connection(s) and " +
                std::to_string(tasks_.size()) + " task(s) still running at the deadline");
    io_.stop();
  }

  static constexpr auto shutdown_grace = 200ms;
  static constexpr auto shutdown_deadline = 2s;

  asio::io_context& io_;
  server_options options_;
  fs::path home_;
  server_state state_;
  tools::server_events events_;
  net::task_group tasks_;  // background work: shutdown closes and awaits it
  net::blocking_pool pool_;  // work that blocks (see its header)
  extension_hub hub_;
  confirmations confirm_;
  announcer announce_;
  reload_pipeline reload_;
  plugin_settings settings_;
  platform_tools platform_;
  webmcp_bridge webmcp_;
  browser_tools browser_tools_;
  plugin_backend plugin_backend_;
  browser_backend browser_backend_;
  tool_pipeline pipeline_;
  std::unique_ptr<mcp::conformance_tools> conformance_;
  // One seal for both endpoints' 2026-07-28 permission questions.
  std::shared_ptr<mcp::request_state_seal> request_states_ = mcp::request_state_seal_from_env();
  completion_sources completions_;
  browser_prompts prompts_;  // the slash commands of /mcp
  std::unique_ptr<mcp::conformance_prompts> conformance_prompts_;
  server_resources resources_;  // what /mcp offers as resources
  std::unique_ptr<mcp::conformance_resources> conformance_resources_;
  tab_changes tab_changes_;  // the extension's tab events as debounced resource changes
  mcp::endpoint mcp_;
  mcp::endpoint gateway_;
  router router_;
  net::http_server http_;
  asio::signal_set signals_;
  config_watcher watcher_;
  plugin_manager plugin_manager_;
  std::unique_ptr<background_sync> durable_;  // null: flush synchronously
  bool stopping_ = false;
  int exit_code_ = 0;
};

int run_server(const server_options& options) {
  log::init_from_env();
  platform::ignore_broken_pipes();
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
