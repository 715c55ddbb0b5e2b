#include "app/payloads.hpp"
#include "app/extension_install.hpp"

#include <algorithm>
#include <cmath>

#include "config/permissions.hpp"
#include "plugins/payload.hpp"
#include "tools/browser_catalog.hpp"
#include "util/clock.hpp"

namespace opentabs::app {

namespace {

constexpr const char* kSdkVersion = "0.0.115";


json::array browser_tools_payload(const config::config_file& cfg) {
  std::vector<const tools::tool_def*> sorted;
  for (const auto& t : tools::browser_tool_catalog()) sorted.push_back(&t);
  std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->name < b->name; });
  json::array out;
  for (const auto* t : sorted) {
    json::object o{{"name", json::str(t->name)}, {"description", json::str(t->description)}};
    if (!t->summary.empty()) o["summary"] = json::str(t->summary);
    o["permission"] = json::str(tools::to_string(config::configured_permission(cfg, "browser", t->name)));
    if (!t->icon.empty()) o["icon"] = json::str(t->icon);
    if (!t->group.empty()) o["group"] = json::str(t->group);
    out.push_back(std::move(o));
  }
  return out;
}

// The plugins that failed to load, each named under `name_key`: sync.full says "specifier",
// /health says "path", for the same text.
json::array failed_plugins(const plugin_catalog& catalog, std::string_view name_key) {
  json::array out;
  for (const auto& e : catalog.discovery_errors)
    if (!e.path_missing) out.push_back(json::object{{name_key, json::str(e.specifier)}, {"error", json::str(e.error)}});
  return out;
}

std::string tab_state_of(const extension_hub& hub, const std::string& plugin) {
  auto state = tab_state::closed;
  for (const auto* c : hub.connections()) state = best_of(state, c->tabs.state_of(plugin));
  return std::string(to_string(state));
}

json::array tabs_of(const extension_hub& hub, const std::string& plugin) {
  json::array out;
  for (const auto* c : hub.connections())
    if (const auto* e = c->tabs.find(plugin))
      for (const auto& t : e->tabs) out.push_back(t.to_json());
  return out;
}

}  // namespace

json::array webmcp_sites_payload(const config::config_file& cfg, const webmcp_directory& webmcp) {
  json::array out;
  for (const auto& s : webmcp.sites()) {
    json::array tools, tabs;
    for (const auto& t : s.tools)
      tools.push_back(json::object{
          {"name", json::str(t)},
          {"permission", json::str(tools::to_string(config::configured_permission(cfg, s.key, t)))}});
    for (auto t : s.tabs) tabs.push_back(t);
    out.push_back(json::object{{"key", json::str(s.key)},
                               {"site", json::str(s.site)},
                               {"permission", json::str(tools::to_string(config::plugin_permission(cfg, s.key)))},
                               {"tabs", std::move(tabs)},
                               {"tools", std::move(tools)}});
  }
  return out;
}

plugins::permission_state permissions_of(const config::config_file& cfg, const plugins::plugin& p) {
  plugins::permission_state perms;
  perms.plugin = config::plugin_permission(cfg, p.name());
  perms.reviewed = config::is_reviewed(cfg, p.name(), p.loaded.version);
  if (auto it = cfg.permissions.find(p.name()); it != cfg.permissions.end())
    for (const auto& [tool, level] : it->second.tools) perms.tools.emplace(tool, level);
  return perms;
}

std::string browser_permission(const config::config_file& cfg) {
  return std::string(tools::to_string(config::plugin_permission(cfg, "browser")));
}

json::object sync_full_params(const server_config& config, const plugin_catalog& catalog) {
  json::array plugins;
  for (const auto& p : catalog.plugins) plugins.push_back(plugins::sync_plugin_payload(p, permissions_of(config.cfg, p), catalog.update_for(p)));
  json::object o{{"plugins", std::move(plugins)},
                 {"failedPlugins", failed_plugins(catalog, "specifier")},
                 {"browserTools", browser_tools_payload(config.cfg)},
                 {"browserPermission", json::str(browser_permission(config.cfg))},
                 {"serverVersion", OPENTABS_VERSION},
                 {"serverSourcePath", json::str(config.server_source_path)},
                 {"skipPermissions", config.skip_permissions}};
  // The hash the installed bundle itself carries, read at each use as the original does: the
  // side panel compares it with the hash it was built with, so it must come from the folder
  // Chrome loaded (which may hold an extension opentabs did not install), not from our files.
  if (auto hash = installed_extension_hash(config.paths.extension_dir()); !hash.empty())
    o["extensionHash"] = json::str(hash);
  return o;
}

json::object plugin_description(const server_config& config, const plugin_catalog& catalog, const extension_hub& hub,
                                 const plugins::plugin& p) {
  return plugins::config_state_plugin_payload(p, permissions_of(config.cfg, p), tab_state_of(hub, p.name()), catalog.update_for(p));
}

json::object config_state(const server_config& config, const plugin_catalog& catalog, const webmcp_directory& webmcp,
                          const extension_hub& hub) {
  std::vector<const plugins::plugin*> sorted;
  for (const auto& p : catalog.plugins) sorted.push_back(&p);
  std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->name() < b->name(); });
  json::array plugins;
  for (const auto* p : sorted)
    plugins.push_back(plugin_description(config, catalog, hub, *p));
  auto o = sync_full_params(config, catalog);
  o["plugins"] = std::move(plugins);
  o["webmcpSites"] = webmcp_sites_payload(config.cfg, webmcp);  // side panel WebMCP card (opentabs addition)
  return o;
}

namespace {

// One plugin's entry in /health pluginDetails.
json::object plugin_health(const plugins::plugin& p, const config::config_file& cfg, const runtime_stats& stats,
                           const extension_hub& hub) {
  json::array tool_names;
  for (const auto& t : p.tools) tool_names.push_back(json::str(t.name));
  json::array patterns;
  for (const auto& u : p.settings.url_patterns) patterns.push_back(json::str(u));
  auto logs = stats.plugin_logs.find(p.name());
  json::object d{{"name", json::str(p.name())},
                 {"displayName", json::str(p.loaded.display_name)},
                 {"toolCount", p.tools.size()},
                 {"tools", std::move(tool_names)},
                 {"urlPatterns", std::move(patterns)},
                 {"permission", json::str(tools::to_string(config::plugin_permission(cfg, p.name())))},
                 {"tabState", json::str(tab_state_of(hub, p.name()))},
                 {"tabs", tabs_of(hub, p.name())},
                 {"source", json::str(p.loaded.source)},
                 {"sdkVersion", p.loaded.sdk_version ? json::str(*p.loaded.sdk_version) : json::value(nullptr)},
                 {"logBufferSize", logs == stats.plugin_logs.end() ? 0 : logs->second.size()},
                 {"needsSetup", p.needs_setup}};
  if (p.loaded.config_schema) d["configSchema"] = *p.loaded.config_schema;
  if (!p.loaded.icon_svg.empty()) d["iconSvg"] = json::str(p.loaded.icon_svg);
  return d;
}


// /health discoveryErrors: every failure with where it came from.
json::array discovery_errors_payload(const plugin_catalog& catalog) {
  json::array discovery;
  for (const auto& e : catalog.discovery_errors)
    discovery.push_back(json::object{
        {"specifier", json::str(e.specifier)}, {"error", json::str(e.error)}, {"source", json::str(e.source)}});
  return discovery;
}

json::object audit_summary_payload(const audit::audit_log& audit) {
  json::object summary = audit.summary(now_epoch_ms()).to_json();
  if (audit.disk_failures() > 0) {
    summary["diskFailures"] = audit.disk_failures();
    summary["lastDiskError"] = json::str(audit.last_disk_error());
  }
  return summary;
}

json::object file_watcher_payload(const watcher_stats& w) {
  return json::object{{"watchedPlugins", w.watched_plugins},
                      {"pendingPlugins", 0},
                      {"lastPollAt", w.last_poll_ms ? json::value(w.last_poll_ms) : json::value(nullptr)},
                      {"pollDetections", w.poll_detections}};
}

}  // namespace

json::object health_payload(const server_state& state, const extension_hub& hub, std::size_t mcp_sessions,
                            const mcp::client_counts& in_use) {
  json::array details;
  std::size_t plugin_tools = 0;
  for (const auto& p : state.catalog.plugins) {
    plugin_tools += p.tools.size();
    details.push_back(plugin_health(p, state.config.cfg, state.stats, hub));
  }
  json::array browser_names, disabled;
  for (const auto& t : tools::browser_tool_catalog()) {
    browser_names.push_back(json::str(t.name));
    if (config::configured_permission(state.config.cfg, "browser", t.name) == tools::permission::off)
      disabled.push_back(json::str(t.name));
  }
  auto uptime = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - state.stats.started).count();
  return json::object{
      {"status", "ok"},
      {"version", OPENTABS_VERSION},
      {"sdkVersion", kSdkVersion},
      {"mode", state.config.dev ? "dev" : "production"},
      {"extensionConnected", hub.connected()},
      {"extensionConnections", hub.connection_count()},
      {"mcpClients", mcp_sessions},
      {"mcpClientsActive", in_use.active()},
      {"mcpSessionsIdle", in_use.idle_sessions},
      {"plugins", state.catalog.plugins.size()},
      {"pluginDetails", std::move(details)},
      {"failedPlugins", failed_plugins(state.catalog, "path")},
      {"toolCount", state.catalog.registry.all().size()},
      {"browserToolCount", tools::browser_tool_catalog().size()},
      {"pluginToolCount", plugin_tools},
      {"browserToolNames", std::move(browser_names)},
      {"disabledBrowserTools", std::move(disabled)},
      {"skipPermissions", state.config.skip_permissions},
      {"uptime", uptime},
      {"reloadCount", state.stats.reloads.count},
      {"lastReloadTimestamp", state.stats.reloads.last_timestamp_ms},
      {"lastReloadDurationMs", state.stats.reloads.last_duration_ms},
      {"stateSchemaVersion", 8},
      {"discoveryErrors", discovery_errors_payload(state.catalog)},
      {"fileWatcher", file_watcher_payload(state.stats.watcher)},
      {"auditSummary", audit_summary_payload(state.audit)},
      {"clientTabs", state.stats.clients.to_json()}};
}

}  // namespace opentabs::app
