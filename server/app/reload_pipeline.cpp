#include "app/reload_pipeline.hpp"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <utility>

#include "app/original_lines.hpp"
#include "app/platform_tools.hpp"
#include "config/auth_secret.hpp"
#include "config/config_edits.hpp"
#include "config/config_lock.hpp"
#include "mcp/gateway_tools.hpp"
#include "plugins/adapter_files.hpp"
#include "plugins/bounded_load.hpp"
#include "plugins/naming.hpp"
#include "tools/browser_catalog.hpp"
#include "util/clock.hpp"
#include "util/env.hpp"
#include "util/log.hpp"
#include "util/original_log.hpp"
#include "util/strings.hpp"

namespace opentabs::app {

namespace fs = std::filesystem;

namespace {

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

// As the original: a config.json rewritten without permissions.browser (by a tool or a
// person who only edits the plugins' part) keeps the browser permission in force.
void keep_browser_permission(config::config_file& next, const config::config_file& current) {
  const std::string key(config::kBrowserPermissionKey);
  if (next.permissions.count(key)) return;
  if (auto kept = current.permissions.find(key); kept != current.permissions.end()) next.permissions.insert(*kept);
}

std::vector<std::string> browser_tool_names() {
  std::vector<std::string> out;
  for (const auto& t : tools::browser_tool_catalog()) out.push_back(t.name);
  return out;
}

// OPENTABS_TEST_RELOAD_GATE=<file>: a test knob that holds an off-thread reload between
// reading config.json and discovering the plugins, so a test can change the config in that
// window deterministically.  Unset in production.
fs::path test_gate_from_env() {
  const char* v = std::getenv("OPENTABS_TEST_RELOAD_GATE");
  return v ? fs::path(v) : fs::path();
}

}  // namespace

std::vector<std::string> builtin_tool_names() {
  auto out = browser_tool_names();
  for (const auto& t : platform_tool_defs()) out.push_back(t.name);
  out.emplace_back(mcp::gateway::list_tools_tool);
  out.emplace_back(mcp::gateway::call_tool);
  return out;
}

std::string listed_tool_name(const std::string& plugin, const std::string& base_name, config::tool_name_style style) {
  return style == config::tool_name_style::double_underscore ? plugin + "__" + base_name
                                                             : plugins::canonical_tool_name(plugin, base_name);
}

reload_pipeline::reload_pipeline(asio::any_io_executor ex, net::blocking_pool& pool, server_config& config,
                                 plugin_catalog& catalog, reload_stats& reloads, announcer& announce, fs::path home,
                                 std::function<void()> flush)
    : ex_(ex),
      pool_(pool),
      config_(config),
      catalog_(catalog),
      reloads_(reloads),
      announce_(announce),
      home_(std::move(home)),
      reload_done_(ex),
      flush_(std::move(flush)),
      pending_config_written_(ex),
      save_wait_(env_milliseconds("OPENTABS_CONFIG_SAVE_WAIT_MS", 0, max_env_milliseconds).value_or(default_save_wait)),
      load_bounds_(plugins::bounded_load_options_from_env()),
      discovery_gate_(test_gate_from_env()) {}

reload_pipeline::prepared reload_pipeline::prepare() {
  prepared prep;
  prep.started = std::chrono::steady_clock::now();
  prep.own_changes = own_changes_;
  auto loaded = config_.store.load();
  if (!loaded) {
    // Keep serving with the last good configuration.
    prep.config_error = loaded.err().message;
    log::error(loaded.err().message + " — keeping the last good configuration");
  } else {
    for (const auto& w : loaded->warnings) log::warn(w);
    prep.cfg = loaded->cfg;
    log::original_line(original_lines::config_loaded(prep.cfg->local_plugins.size(), prep.cfg->permissions.size()));
  }
  prep.cfg_stamp = config_.store.last_stamp();
  if (auto s = config::ensure_secret(config_.paths.auth_json())) {
    for (const auto& w : s->warnings) log::warn(w);
    if (s->generated) log::info("generated a new secret in " + config_.paths.auth_json().string());
    prep.secret = s->secret;
  } else {
    log::error(s.err().message);
  }
  plugins::remove_exec_leftovers(config_.paths.adapters_dir());

  const config::config_file& cfg = prep.cfg ? *prep.cfg : config_.cfg;
  plugins::discovery_input& in = prep.discovery;
  in.local_plugins = cfg.local_plugins;
  in.local_plugin_dirs = cfg.local_plugin_dirs;
  in.additional_allowed_directories = cfg.additional_allowed_directories;
  in.config_dir = config_.paths.dir;
  in.home = home_;
  std::error_code ec;
  in.tmpdir = fs::temp_directory_path(ec);
  in.cwd = fs::current_path(ec);
  in.npm_global_root = npm_global_root();
  in.load.browser_tool_names = browser_tool_names();
  in.builtin_tool_names = builtin_tool_names();
  in.load_one = [bounds = load_bounds_, reads = &pool_.bounded()](const fs::path& dir, std::string_view source,
                                                                  const plugins::load_options& o) {
    return plugins::load_plugin_bounded(dir, source, o, bounds, *reads);
  };
  return prep;
}

reload_outcome reload_pipeline::reload(reload_cause cause) {
  applied_sequence_ = ++reload_sequence_;
  auto prep = prepare();
  auto found = plugins::discover(prep.discovery);
  return apply(std::move(prep), std::move(found), cause);
}

net::awaitable<reload_outcome> reload_pipeline::reload_off_thread(reload_cause cause) {
  const auto sequence = ++reload_sequence_;
  auto prep = prepare();
  co_await hold_at_test_gate();
  // Discovery reads every plugin folder: on the pool, so the io thread keeps serving while a
  // slow filesystem answers (each plugin bounded by its deadline there).
  auto discover = [in = prep.discovery] { return plugins::discover(in); };
  auto found = co_await pool_.run(std::move(discover));
  // A reload that started after this one and has ended read config.json and the plugins later:
  // the state never goes back to older news.  One still running applies after this one.
  if (sequence < applied_sequence_) co_return last_applied_;
  applied_sequence_ = sequence;
  co_return apply(std::move(prep), std::move(found), cause);
}

std::vector<plugins::plugin> reload_pipeline::make_plugins(plugins::discovery_result& found) const {
  std::vector<plugins::plugin> next;
  for (auto& l : found.plugins) {
    for (const auto& w : l.warnings) log::warn("plugin " + l.name + ": " + w);
    auto it = config_.cfg.settings.find(l.name);
    next.push_back(plugins::make_plugin(std::move(l), it == config_.cfg.settings.end() ? nullptr : &it->second));
    for (const auto& w : next.back().settings.warnings) log::warn("plugin " + next.back().name() + ": " + w);
  }
  for (const auto& e : found.errors) log::warn("plugin " + e.specifier + ": " + e.error);
  for (const auto& p : next) {
    std::vector<std::string> tool_names;
    for (const auto& t : p.loaded.tools) tool_names.push_back(t.name);
    log::original_line(original_lines::discovered_plugin(p.name(), p.loaded.version, p.loaded.source, p.loaded.source_path, tool_names));
  }
  log::original_line(original_lines::discovery_complete(next.size(), found.errors.size()));
  return next;
}

void reload_pipeline::reset_changed_reviews() {
  // Reviews of plugins whose version changed no longer hold (spec §2.2).
  std::map<std::string, std::string> versions;
  for (const auto& p : catalog_.plugins) versions[p.name()] = p.loaded.version;
  // The store may keep the edit to run again once config.json.lock is free: by value.
  auto reset = std::make_shared<std::vector<std::string>>();
  auto r = config_.store.update([versions, reset](json::object& root) -> result<bool> {
    *reset = config::reset_stale_reviews(root, versions);
    return !reset->empty();
  });
  if (r && !reset->empty()) {
    config_.cfg = r->cfg;
    for (const auto& n : *reset) log::info("plugin " + n + " changed version: its review was reset (permission off)");
  }
  // cfg_stamp stays the stamp of the version load() read: the plugins were built from it,
  // and if anyone (this reset included) wrote since, the watcher reloads once more instead
  // of missing that change.
}

void reload_pipeline::rebuild_registry() {
  std::vector<tools::tool_def> plugin_tools;
  for (auto& p : catalog_.plugins)
    for (auto& t : p.tools) {
      t.name = listed_tool_name(t.plugin, t.base_name, config_.cfg.tool_names);
      plugin_tools.push_back(t);
    }
  catalog_.registry.rebuild(std::move(plugin_tools), tools::browser_tool_catalog(), platform_tool_defs());
}

reload_outcome reload_pipeline::apply(prepared prep, plugins::discovery_result found, reload_cause cause) {
  reload_outcome out;
  if (prep.own_changes != own_changes_) {
    // While discovery ran, the server changed config.json itself (a side-panel permission)
    // and put the result in the state: that config was read under the lock after this
    // reload's read, so it holds everything this one does and the acknowledged change too.
    // It stays; the older stamp below makes the watcher read the file once more, so the
    // plugins are discovered from the newest localPlugins as well.
  } else if (prep.cfg) {
    keep_browser_permission(*prep.cfg, config_.cfg);
    config_.cfg = std::move(*prep.cfg);
  } else {
    out.ok = false;
    out.error = prep.config_error;
  }
  config_.cfg_stamp = prep.cfg_stamp;
  auto old_secret = config_.secret;
  if (prep.secret) config_.secret = std::move(*prep.secret);
  for (const auto& w : found.warnings) log::warn(w);

  std::vector<plugins::plugin> next = make_plugins(found);
  reload_news news = rebuilt_plugins(catalog_.plugins, next);
  if (config_.dev) {
    for (const auto& name : news.rebuilt_tools) log::original_line(original_lines::tools_json_updated(name));
    for (const auto& name : news.rebuilt_adapters) log::original_line(original_lines::iife_updated(name));
  }
  catalog_.plugins = std::move(next);
  catalog_.discovery_errors = std::move(found.errors);
  reset_changed_reviews();

  if (defer_adapters_) {
    defer_adapters_ = false;
    std::vector<const plugins::loaded_plugin*> loaded_ptrs;
    for (const auto& p : catalog_.plugins) loaded_ptrs.push_back(&p.loaded);
    deferred_adapters_ = plugins::adapter_files_for(loaded_ptrs);
  } else {
    rewrite_adapter_files();
  }

  rebuild_registry();

  out.plugins = catalog_.plugins.size();
  out.duration_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - prep.started).count();
  ++reloads_.count;
  reloads_.last_timestamp_ms = now_epoch_ms();
  reloads_.last_duration_ms = out.duration_ms;

  if (cause != reload_cause::start) {
    news.secret_rotated = !old_secret.empty() && old_secret != config_.secret;
    announce_.reloaded(news);
  }
  last_applied_ = out;
  print_completion(cause, out);
  return out;
}

void reload_pipeline::print_completion(reload_cause cause, const reload_outcome& out) const {
  // The config watcher at start says it is watching itself (config_watcher::run); the
  // original restarts its watcher after every reload and says so each time.
  if (cause == reload_cause::start) return;
  log::original_line(original_lines::config_watching(config_.paths.dir));
  if (cause == reload_cause::signal && config_.dev) {
    log::original_line(original_lines::hot_reload_complete(out.duration_ms));
  } else if (out.ok) {
    log::original_line(original_lines::config_reload_complete(out.plugins, out.duration_ms));
  }
}

net::awaitable<reload_outcome> reload_pipeline::reload_coalesced() {
  if (reload_waiting_) {
    auto gen = reload_generation_;
    while (reload_generation_ == gen) co_await reload_done_.wait();
    co_return last_reload_;
  }
  reload_waiting_ = true;
  asio::steady_timer debounce(ex_, coalesce_window);
  co_await debounce.async_wait(net::as_value);
  last_reload_ = co_await reload_off_thread(reload_cause::rest);
  reload_waiting_ = false;
  ++reload_generation_;
  reload_done_.notify_all();
  co_return last_reload_;
}

net::awaitable<void> reload_pipeline::hold_at_test_gate() {
  std::error_code ec;
  if (discovery_gate_.empty() || !fs::exists(discovery_gate_, ec)) co_return;
  // "<gate>.reached" tells the test that config.json has been read.
  fs::path reached = discovery_gate_;
  reached += ".reached";
  if (std::FILE* f = std::fopen(reached.string().c_str(), "w")) std::fclose(f);
  const auto give_up = net::steady_clock::now() + std::chrono::minutes(1);
  asio::steady_timer poll(ex_);
  while (fs::exists(discovery_gate_, ec) && net::steady_clock::now() < give_up) {
    poll.expires_after(std::chrono::milliseconds(10));
    co_await poll.async_wait(net::as_value);
  }
}

std::vector<plugins::adapter_file> reload_pipeline::take_deferred_adapter_files() {
  deferred_adapters_writing_ = true;
  return std::move(deferred_adapters_);
}

void reload_pipeline::deferred_adapter_files_written() {
  deferred_adapters_writing_ = false;
  if (std::exchange(rewrite_after_deferred_, false)) rewrite_adapter_files();
}

void reload_pipeline::rewrite_adapter_files() {
  if (deferred_adapters_writing_) {
    rewrite_after_deferred_ = true;
    return;
  }
  std::vector<const plugins::loaded_plugin*> loaded;
  for (const auto& p : catalog_.plugins) loaded.push_back(&p.loaded);
  auto files = plugins::write_adapter_files(config_.paths.adapters_dir(), loaded);
  for (const auto& e : files.errors) log::warn("adapter files: " + e);
  if (!files.written.empty() || !files.removed.empty()) flush_();
}

void reload_pipeline::defer_locked_config_writes() {
  config_.store.set_lock_patience(std::chrono::milliseconds(0));
  config_.store.defer_when_locked([this] {
    if (writing_pending_config_) return;
    writing_pending_config_ = true;
    asio::co_spawn(ex_, write_pending_config(), net::log_failure("config write"));
  });
}

net::awaitable<void> reload_pipeline::write_pending_config() {
  asio::steady_timer pause(ex_);
  std::string last_problem;
  while (config_.store.has_pending()) {
    pause.expires_after(config::config_lock::retry_interval);
    co_await pause.async_wait(net::as_value);
    auto r = config_.store.write_pending();
    if (r) {
      log::info("config.json: saved the change that waited for " + config::config_lock::lock_path_for(config_.store.path()).string());
      // A full reload: the lock's holder may have changed config.json too (a plugin build
      // adds to localPlugins), and this write moves the stamp the watcher compares.
      reload(reload_cause::own_change);
    } else if (r.err().message != last_problem) {
      last_problem = r.err().message;
      log::warn("config.json: a change is waiting: " + last_problem);
    }
    pending_config_written_.notify_all();
  }
  writing_pending_config_ = false;
  pending_config_written_.notify_all();
}

net::awaitable<reload_pipeline::save_state> reload_pipeline::wait_until_saved(std::uint64_t ticket) {
  const auto deadline = net::steady_clock::now() + save_wait_;
  for (;;) {
    if (config_.store.written_through() >= ticket) co_return save_state::saved;
    if (config_.store.dropped_through() >= ticket) co_return save_state::dropped;
    if (!co_await pending_config_written_.wait_until(deadline)) co_return save_state::waiting;
  }
}

void reload_pipeline::when_saved(std::uint64_t ticket, std::function<void(save_state)> done) {
  if (config_.store.written_through() >= ticket) {
    done(save_state::saved);
    return;
  }
  asio::co_spawn(ex_, tell_when_saved(ticket, std::move(done)), net::log_failure("config save notice"));
}

net::awaitable<void> reload_pipeline::tell_when_saved(std::uint64_t ticket, std::function<void(save_state)> done) {
  done(co_await wait_until_saved(ticket));
}

std::string reload_pipeline::unsaved_message(save_state state) const {
  const auto lock = config::config_lock::lock_path_for(config_.store.path()).string();
  if (state == save_state::dropped)
    return "the change was not saved: together with other changes waiting for " + lock + " it would make " +
           config_.store.path().string() + " too large";
  return "accepted but not written yet: another program holds " + lock +
         "; the server applies the change now and writes config.json when the lock is released";
}

void reload_pipeline::apply_own_change(bool rediscover, const config::config_file* saved) {
  if (rediscover) {
    reload(reload_cause::own_change);
    return;
  }
  if (saved) {
    // `saved` came from the update just made, which re-read config.json under the lock, so
    // it holds every other writer's earlier change too; its stamp is the version written.
    // Restamping from the disk here could swallow a change another process made since.
    auto next = *saved;
    keep_browser_permission(next, config_.cfg);
    config_.cfg = std::move(next);
    config_.cfg_stamp = config_.store.last_stamp();
    ++own_changes_;
  }
  announce_.config_changed();
}

}  // namespace opentabs::app
