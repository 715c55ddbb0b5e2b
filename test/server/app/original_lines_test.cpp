// The original OpenTabs 0.0.115 server's stdout lines, word for word (its
// platform/mcp-server/src: index.ts, reload.ts, discovery.ts, file-watcher.ts, http-routes.ts,
// extension-protocol.ts, extension-handlers.ts).  The integration test
// test/integration/original_log_lines.test.mjs waits for each from the real binary.
#include "app/original_lines.hpp"

#include <doctest/doctest.h>

using namespace opentabs::app;

TEST_CASE("start and reload lines") {
  CHECK(original_lines::listening("0.1.0", "127.0.0.1", 9515, false) == "MCP server v0.1.0 listening on http://127.0.0.1:9515");
  CHECK(original_lines::listening("0.1.0", "::1", 9515, true) == "MCP server v0.1.0 listening on http://[::1]:9515 (dev mode)");
  CHECK(original_lines::config_loaded(2, 3) == "Config loaded: 2 local plugin path(s), 3 plugin permission(s)");
  CHECK(original_lines::discovered_plugin("notes", "1.0.0", "local", "/p/notes", {"a", "b"}) ==
        "Discovered plugin: notes v1.0.0 (local) from /p/notes — tools: [a, b]");
  CHECK(original_lines::discovered_plugin("npmplug", "2.0.0", "npm", "/g/x", {}) ==
        "Discovered plugin: npmplug v2.0.0 (npm) from (npm) — tools: []");
  CHECK(original_lines::discovery_complete(1, 0) == "Plugin discovery complete: 1 plugin(s) loaded, 0 error(s)");
  CHECK(original_lines::config_watching("/home/u/.opentabs") == "Config watcher: Watching /home/u/.opentabs for config.json changes");
  CHECK(original_lines::config_reload_complete(4, 12) == "Config reload complete: 4 plugin(s) in 12ms");
  CHECK(original_lines::hot_reload_complete(7) == "Hot reload complete (7ms)");
}

TEST_CASE("watcher lines") {
  CHECK(original_lines::config_changed() == "Config watcher: config.json changed — triggering reload");
  CHECK(original_lines::file_watching(0, 0) == "File watcher: No local plugins to watch");
  CHECK(original_lines::file_watching(1, 2) == "File watcher: Watching 1 loaded + 2 pending plugin path(s)");
  CHECK(original_lines::iife_updated("devplug") == "File watcher: IIFE updated for \"devplug\" — sending plugin.update");
  CHECK(original_lines::tools_json_updated("devplug") == "File watcher: tools.json updated for \"devplug\" — re-registering MCP tools");
}

TEST_CASE("extension connection lines") {
  CHECK(original_lines::extension_connected("A", "c1") == "Extension WebSocket connected [A] (connectionId: c1)");
  CHECK(original_lines::closing_previous("c1") ==
        "Closing previous extension WebSocket (replaced by same-profile reconnect, connectionId: c1)");
  CHECK(original_lines::closing_previous_without_id() ==
        "Closing previous extension WebSocket (replaced by new connection without connectionId)");
  CHECK(original_lines::extension_disconnected("B", "c2") == "Extension WebSocket disconnected [B] (connectionId: c2)");
  CHECK(original_lines::sent_sync_full(3) == "Sent sync.full to extension with 3 plugin(s)");
  CHECK(original_lines::tab_sync_all("A", 1, "c1") == "tab.syncAll received [A]: 1 plugin(s) mapped (connection: c1)");
  CHECK(original_lines::tab_state_changed("notes", "ready", "A") == "tab.stateChanged: notes → ready [A]");
}
