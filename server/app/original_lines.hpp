// The stdout lines of the original OpenTabs 0.0.115 server, word for word, one function per
// event: this header is the table (event → line).  Tooling and end-to-end tests written for
// the original wait on stdout for these texts (mostly by substring: "Config reload complete",
// "IIFE updated for", "Config watcher: Watching", ...), so every path that causes an event
// prints its line from here through log::original_line, and nowhere else spells it.
// Lines marked "opentabs" have no counterpart in the original's server process.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace opentabs::app::original_lines {

// ── Start ───────────────────────────────────────────────────────────────────────────────
// "MCP server v<version> listening on http://<host>:<port>[ (dev mode)]"
std::string listening(std::string_view version, std::string_view host, std::uint16_t port, bool dev);

// ── Every reload (start, POST /reload, config.json change, signal, plugin install) ─────────
// "Config loaded: <n> local plugin path(s), <m> plugin permission(s)"
std::string config_loaded(std::size_t local_plugin_paths, std::size_t plugin_permissions);
// "Discovered plugin: <name> v<version> (<source>) from <path or (npm)> — tools: [<a>, <b>]"
std::string discovered_plugin(std::string_view name, std::string_view version, std::string_view source,
                              const std::filesystem::path& local_path, const std::vector<std::string>& tool_names);
// "Plugin discovery complete: <n> plugin(s) loaded, <e> error(s)"
std::string discovery_complete(std::size_t plugins, std::size_t errors);
// "Config watcher: Watching <config dir> for config.json changes" (after every reload)
std::string config_watching(const std::filesystem::path& config_dir);
// "Config reload complete: <n> plugin(s) in <ms>ms" (every reload but the first and a
// --dev hot reload)
std::string config_reload_complete(std::size_t plugins, std::int64_t duration_ms);
// "Hot reload complete (<ms>ms)" (--dev, a reload on SIGUSR1/SIGHUP)
std::string hot_reload_complete(std::int64_t duration_ms);
// opentabs: "Hot reload detected (<signal>)" (the original's dev proxy prints its own line)
std::string hot_reload_detected(std::string_view signal);

// ── Watchers ────────────────────────────────────────────────────────────────────────────
// "Config watcher: config.json changed — triggering reload"
std::string config_changed();
// --dev: "File watcher: Watching <n> loaded + <m> pending plugin path(s)", or
// "File watcher: No local plugins to watch"
std::string file_watching(std::size_t loaded, std::size_t pending);
// --dev: `File watcher: IIFE updated for "<plugin>" — sending plugin.update`
std::string iife_updated(std::string_view plugin);
// --dev: `File watcher: tools.json updated for "<plugin>" — re-registering MCP tools`
std::string tools_json_updated(std::string_view plugin);

// ── Extension connections ───────────────────────────────────────────────────────────────
// "Extension WebSocket connected [<label>] (connectionId: <id>)"
std::string extension_connected(std::string_view label, std::string_view connection_id);
// "Closing previous extension WebSocket (replaced by same-profile reconnect, connectionId: <id>)"
std::string closing_previous(std::string_view connection_id);
// "Closing previous extension WebSocket (replaced by new connection without connectionId)"
std::string closing_previous_without_id();
// "Extension WebSocket disconnected [<label>] (connectionId: <id>)"
std::string extension_disconnected(std::string_view label, std::string_view connection_id);
// "Sent sync.full to extension with <n> plugin(s)"
std::string sent_sync_full(std::size_t plugins);
// "tab.syncAll received [<label>]: <n> plugin(s) mapped (connection: <id>)"
std::string tab_sync_all(std::string_view label, std::size_t plugins, std::string_view connection_id);
// "tab.stateChanged: <plugin> → <state> [<label>]"
std::string tab_state_changed(std::string_view plugin, std::string_view state, std::string_view label);

}  // namespace opentabs::app::original_lines
