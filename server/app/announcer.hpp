// Every notice the server sends on its own initiative, in one place: to the extensions
// (sync.full, plugins.changed, plugin.update, extension.reload) and to the MCP sessions
// (notifications/tools/list_changed through tools::server_events).  The pieces that change
// state (reload pipeline, plugin settings, plugin manager, WebMCP bridge) say what changed;
// the announcer decides who hears about it and in what order.
#pragma once

#include <chrono>
#include <map>
#include <string>

#include "app/extension_hub.hpp"
#include "app/plugin_catalog.hpp"
#include "app/server_config.hpp"
#include "app/webmcp_directory.hpp"
#include "json/json.hpp"
#include "net/task_group.hpp"
#include "tools/events.hpp"

namespace opentabs::app {

// What a reload changed that the extensions must hear about.
struct reload_news {
  // Plugins (by name, in load order) whose dist/adapter.iife.js or dist/tools.json differs
  // from the one loaded before.  In dev mode each gets its own plugin.update, so the
  // extension re-injects the adapter; the file's content counts, not only its embedded
  // __adapterHash, which a rebuild with the same sources may leave alone.
  std::vector<std::string> rebuilt_adapters;
  std::vector<std::string> rebuilt_tools;
  // The secret was rotated on disk: the extensions must reconnect with the new one.
  bool secret_rotated = false;
};

// The news of a reload that replaces `before` with `after` (new plugins are not listed:
// sync.full introduces them).
reload_news rebuilt_plugins(const std::vector<plugins::plugin>& before, const std::vector<plugins::plugin>& after);

// Writes the adapter files of the plugins loaded now where any is missing or differs (the
// reload pipeline does).  Like the original, every sync.full a new connection gets is
// preceded by it: the extension folder may have been replaced or re-linked since.
class adapter_files_writer {
 public:
  virtual void rewrite_adapter_files() = 0;

 protected:
  ~adapter_files_writer() = default;
};

class announcer {
 public:
  // `tasks` holds the delayed extension.reload; `adapters` writes the files a new
  // connection's sync.full names.  Every reference outlives the announcer.
  announcer(const server_config& config, const plugin_catalog& catalog, const webmcp_directory& webmcp, extension_hub& hub,
            tools::server_events& events, net::task_group& tasks, adapter_files_writer& adapters);

  // A new extension connection: the adapter files rewritten, then sync.full to it alone
  // (while sync.full is held, later).
  void greet(ext_connection& c);
  // While the extension files are being copied (after the server listens, see server.cpp)
  // no sync.full goes out: it carries the copy's hash, and the extension compares it with
  // the files it loaded.  release_sync() sends it to every connection that arrived meanwhile.
  void hold_sync() { sync_held_ = true; }
  void release_sync();
  // The config state changed (permissions, settings, known updates, WebMCP tools):
  // plugins.changed to every extension.
  void plugins_changed();
  // The tool list or a permission that decides what a session may call changed:
  // plugins.changed to the extensions and tools/list_changed to every MCP session.
  void config_changed();
  // After a reload: sync.full, in dev mode plugin.update for each rebuilt adapter,
  // plugins.changed, and extension.reload after a short delay when the secret was rotated
  // (the extension first takes in the sync); then tools/list_changed to the MCP sessions.
  void reloaded(const reload_news& news);

  // How long extension.reload waits after the sync that precedes it.
  static constexpr std::chrono::milliseconds extension_reload_delay{500};

 private:
  net::awaitable<void> reload_extensions_later();

  const server_config& config_;
  const plugin_catalog& catalog_;
  const webmcp_directory& webmcp_;
  extension_hub& hub_;
  tools::server_events& events_;
  net::task_group& tasks_;
  adapter_files_writer& adapters_;
  bool sync_held_ = false;
};

}  // namespace opentabs::app
