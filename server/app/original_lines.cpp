#include "app/original_lines.hpp"

namespace opentabs::app::original_lines {

namespace {

std::string str(std::string_view s) { return std::string(s); }

}  // namespace

std::string listening(std::string_view version, std::string_view host, std::uint16_t port, bool dev) {
  const bool v6 = host.find(':') != std::string_view::npos;
  return "MCP server v" + str(version) + " listening on http://" + (v6 ? "[" + str(host) + "]" : str(host)) + ":" +
         std::to_string(port) + (dev ? " (dev mode)" : "");
}

std::string config_loaded(std::size_t local_plugin_paths, std::size_t plugin_permissions) {
  return "Config loaded: " + std::to_string(local_plugin_paths) + " local plugin path(s), " + std::to_string(plugin_permissions) +
         " plugin permission(s)";
}

std::string discovered_plugin(std::string_view name, std::string_view version, std::string_view source,
                              const std::filesystem::path& local_path, const std::vector<std::string>& tool_names) {
  std::string tools;
  for (const auto& t : tool_names) tools += (tools.empty() ? "" : ", ") + t;
  return "Discovered plugin: " + str(name) + " v" + str(version) + " (" + str(source) + ") from " +
         (source == "local" ? local_path.string() : std::string("(npm)")) + " — tools: [" + tools + "]";
}

std::string discovery_complete(std::size_t plugins, std::size_t errors) {
  return "Plugin discovery complete: " + std::to_string(plugins) + " plugin(s) loaded, " + std::to_string(errors) + " error(s)";
}

std::string config_watching(const std::filesystem::path& config_dir) {
  return "Config watcher: Watching " + config_dir.string() + " for config.json changes";
}

std::string config_reload_complete(std::size_t plugins, std::int64_t duration_ms) {
  return "Config reload complete: " + std::to_string(plugins) + " plugin(s) in " + std::to_string(duration_ms) + "ms";
}

std::string hot_reload_complete(std::int64_t duration_ms) { return "Hot reload complete (" + std::to_string(duration_ms) + "ms)"; }

std::string hot_reload_detected(std::string_view signal) { return "Hot reload detected (" + str(signal) + ")"; }

std::string config_changed() { return "Config watcher: config.json changed — triggering reload"; }

std::string file_watching(std::size_t loaded, std::size_t pending) {
  if (loaded == 0 && pending == 0) return "File watcher: No local plugins to watch";
  return "File watcher: Watching " + std::to_string(loaded) + " loaded + " + std::to_string(pending) + " pending plugin path(s)";
}

std::string iife_updated(std::string_view plugin) {
  return "File watcher: IIFE updated for \"" + str(plugin) + "\" — sending plugin.update";
}

std::string tools_json_updated(std::string_view plugin) {
  return "File watcher: tools.json updated for \"" + str(plugin) + "\" — re-registering MCP tools";
}

std::string extension_connected(std::string_view label, std::string_view connection_id) {
  return "Extension WebSocket connected [" + str(label) + "] (connectionId: " + str(connection_id) + ")";
}

std::string closing_previous(std::string_view connection_id) {
  return "Closing previous extension WebSocket (replaced by same-profile reconnect, connectionId: " + str(connection_id) + ")";
}

std::string closing_previous_without_id() {
  return "Closing previous extension WebSocket (replaced by new connection without connectionId)";
}

std::string extension_disconnected(std::string_view label, std::string_view connection_id) {
  return "Extension WebSocket disconnected [" + str(label) + "] (connectionId: " + str(connection_id) + ")";
}

std::string sent_sync_full(std::size_t plugins) { return "Sent sync.full to extension with " + std::to_string(plugins) + " plugin(s)"; }

std::string tab_sync_all(std::string_view label, std::size_t plugins, std::string_view connection_id) {
  return "tab.syncAll received [" + str(label) + "]: " + std::to_string(plugins) + " plugin(s) mapped (connection: " +
         str(connection_id) + ")";
}

std::string tab_state_changed(std::string_view plugin, std::string_view state, std::string_view label) {
  return "tab.stateChanged: " + str(plugin) + " → " + str(state) + " [" + str(label) + "]";
}

}  // namespace opentabs::app::original_lines
