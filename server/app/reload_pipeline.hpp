// The reload pipeline (spec §6.8): re-reads config.json and the secret, rediscovers the
// plugins, resets reviews of plugins whose version changed, writes the adapter files and
// rebuilds the tool registry, then has the announcer tell the extensions and MCP sessions.
// It also takes in the config changes the server writes itself (permissions, settings),
// and coalesces POST /reload requests.  The plugin folders may sit on a slow filesystem:
// every plugin is loaded with a deadline (plugins/bounded_load.hpp), and POST /reload, the
// config watcher and plugin install/update/remove run discovery on the server's blocking pool
// while the io thread keeps serving.  What a
// reload changes in the server state is replaced at once on the io thread, after discovery,
// so nothing sees a half-replaced state.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/announcer.hpp"
#include "app/plugin_catalog.hpp"
#include "app/runtime_stats.hpp"
#include "app/server_config.hpp"
#include "config/config.hpp"
#include "config/config_store.hpp"
#include "net/asio.hpp"
#include "net/blocking_pool.hpp"
#include "net/event.hpp"
#include "plugins/adapter_files.hpp"
#include "plugins/bounded_load.hpp"
#include "plugins/discovery.hpp"

namespace opentabs::app {

// What started a reload: it decides whether the extensions hear of it and which of the
// original's completion lines it prints (original_lines.hpp).
enum class reload_cause {
  start,        // the first, before anyone is connected: nothing announced
  config_file,  // the watcher saw config.json (or, in --dev, a plugin's dist/) change
  rest,         // POST /reload
  signal,       // SIGUSR1 / SIGHUP
  own_change,   // a config change the server made itself, or a plugin installed, updated or removed
};

struct reload_outcome {
  bool ok = true;
  std::size_t plugins = 0;
  std::int64_t duration_ms = 0;
  std::string error;
};

// Tool names no plugin may take: the browser tools, the platform tools and the gateway's two.
std::vector<std::string> builtin_tool_names();

// The spelling of a plugin tool's name in tools/list and the audit log under the configured
// toolNames style (both spellings stay callable).
std::string listed_tool_name(const std::string& plugin, const std::string& base_name, config::tool_name_style style);

class reload_pipeline {
 public:
  // `pool` runs discovery and bounds each plugin's load; `flush` is called after a reload
  // wrote adapter files (written without waiting for the disk), to have them flushed.
  reload_pipeline(asio::any_io_executor ex, net::blocking_pool& pool, server_config& config, plugin_catalog& catalog,
                  reload_stats& reloads, announcer& announce, std::filesystem::path home, std::function<void()> flush);

  // Reloads now, on this thread.  A config.json that does not parse keeps the last good
  // configuration (the outcome says why).
  reload_outcome reload(reload_cause cause);

  // The same with discovery on the pool; the io thread serves meanwhile.  When a
  // reload that started later has already ended, its outcome stands and this one changes
  // nothing; otherwise this one applies (and a later one still running applies after it).
  net::awaitable<reload_outcome> reload_off_thread(reload_cause cause);

  // POST /reload: callers within `coalesce_window` of each other share one reload.
  net::awaitable<reload_outcome> reload_coalesced();
  static constexpr std::chrono::milliseconds coalesce_window{500};

  // A config change the server made itself (permissions, settings, the skip toggle).
  // `rediscover`: reload the plugins too.  Otherwise `saved` (the config just written; null
  // when only runtime state changed) becomes the state's config, and the change is announced.
  void apply_own_change(bool rediscover, const config::config_file* saved);

  // Makes the server's config writes wait for config.json.lock without blocking: from now
  // on an edit that finds the lock held is kept by the store and written here, retried
  // every config_lock::retry_interval on a timer (config_store.hpp).
  void defer_locked_config_writes();

  // Whether the server's config edits made up to now are on disk.  A caller takes
  // save_ticket() right after its edit and answers "saved" only once wait_until_saved says
  // so: an edit kept while another program held config.json.lock is not durable yet, and
  // a crash would lose it.  Waits at most save_wait (OPENTABS_CONFIG_SAVE_WAIT_MS), then
  // says `waiting`: the edit is applied and will still be written when the lock is free.
  enum class save_state { saved, waiting, dropped };
  std::uint64_t save_ticket() const noexcept { return config_.store.kept_count(); }
  net::awaitable<save_state> wait_until_saved(std::uint64_t ticket);
  // The same for a caller that is not a coroutine: `done` runs on the io thread.
  void when_saved(std::uint64_t ticket, std::function<void(save_state)> done);
  // What a caller tells the person when the answer is not `saved`.
  std::string unsaved_message(save_state state) const;
  static constexpr std::chrono::milliseconds default_save_wait{10'000};  // within the extension's 30 s request timeout

  // Writes the adapter files of the plugins loaded now where any is missing or differs
  // (an extension folder replaced under a running server), removing those of plugins gone;
  // before each sync.full a new connection gets, as the original does.
  void rewrite_adapter_files();

  // The next reload (the first, at start) computes its adapter files without writing them:
  // the server writes them off the start-up path (take_deferred_adapter_files), with sync.full
  // held until they are there, and then says so (deferred_adapter_files_written).  Adapter
  // writes asked for in between are made then, from the plugins loaded at that moment, so
  // they never race that first write and nobody waits for it.
  void defer_adapter_files() { defer_adapters_ = true; }
  std::vector<plugins::adapter_file> take_deferred_adapter_files();
  void deferred_adapter_files_written();

 private:
  // What a reload reads before discovery; nothing of it is in the state yet.
  struct prepared {
    std::chrono::steady_clock::time_point started;
    std::optional<config::config_file> cfg;  // nullopt: config.json did not load (config_error)
    std::string config_error;
    config::file_stamp cfg_stamp;
    std::optional<std::string> secret;
    plugins::discovery_input discovery;
    std::uint64_t own_changes = 0;  // own_changes_ when config.json was read
  };
  prepared prepare();
  reload_outcome apply(prepared p, plugins::discovery_result found, reload_cause cause);
  // The original's lines after a reload ended (original_lines.hpp).
  void print_completion(reload_cause cause, const reload_outcome& out) const;
  // The steps of apply: the plugins built from what discovery read and the config's settings
  // (their warnings logged); reviews of plugins whose version changed reset in config.json;
  // the tool registry rebuilt from the catalog's plugins under the config's tool names.
  std::vector<plugins::plugin> make_plugins(plugins::discovery_result& found) const;
  void reset_changed_reviews();
  void rebuild_registry();
  // OPENTABS_TEST_RELOAD_GATE: holds an off-thread reload between reading config.json and
  // discovery while the gate file exists (polled on a timer, at most a minute).
  net::awaitable<void> hold_at_test_gate();
  net::awaitable<void> write_pending_config();
  net::awaitable<void> tell_when_saved(std::uint64_t ticket, std::function<void(save_state)> done);

  asio::any_io_executor ex_;
  net::blocking_pool& pool_;
  server_config& config_;    // a reload replaces the config and the secret
  plugin_catalog& catalog_;  // and the plugins and the registry, as a whole
  reload_stats& reloads_;
  announcer& announce_;
  std::filesystem::path home_;
  net::event reload_done_;  // notified when a coalesced reload finished
  bool reload_waiting_ = false;
  std::uint64_t reload_generation_ = 0;
  reload_outcome last_reload_;
  std::function<void()> flush_;
  bool defer_adapters_ = false;
  std::vector<plugins::adapter_file> deferred_adapters_;
  bool deferred_adapters_writing_ = false;  // taken, not written yet
  bool rewrite_after_deferred_ = false;     // rewrite_adapter_files was asked meanwhile
  bool writing_pending_config_ = false;
  net::event pending_config_written_;  // each attempt of write_pending_config
  std::chrono::milliseconds save_wait_;
  plugins::bounded_load_options load_bounds_;
  std::uint64_t reload_sequence_ = 0;   // reloads started
  std::uint64_t applied_sequence_ = 0;  // the newest one whose outcome is in the state
  // Config changes the server made itself and put in the state (apply_own_change): a reload
  // that read config.json before the latest of them holds an older file than the state.
  std::uint64_t own_changes_ = 0;
  std::filesystem::path discovery_gate_;  // OPENTABS_TEST_RELOAD_GATE (see reload_off_thread)
  reload_outcome last_applied_;
};

}  // namespace opentabs::app
