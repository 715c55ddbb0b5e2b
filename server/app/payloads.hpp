// The JSON documents the server builds from its state: sync.full and plugin payloads for
// the extension, the config state (config.getState / plugins.changed), and /health.
// Shapes and key names follow spec §3.6 and §6.6 exactly; the real extension reads them.
#pragma once

#include <cstddef>

#include "app/extension_hub.hpp"
#include "app/plugin_catalog.hpp"
#include "app/server_config.hpp"
#include "app/server_state.hpp"
#include "app/webmcp_directory.hpp"
#include "json/json.hpp"
#include "mcp/client_activity.hpp"
#include "plugins/payload.hpp"

namespace opentabs::app {

json::object sync_full_params(const server_config& config, const plugin_catalog& catalog);
json::object config_state(const server_config& config, const plugin_catalog& catalog, const webmcp_directory& webmcp,
                          const extension_hub& hub);
// The full authenticated /health payload.  `mcp_sessions` is the original's mcpClients
// (sessions of /mcp, idle or not); `in_use` counts /mcp and /mcp/gateway clients in use.
// The one reader of the whole state: /health reports every piece.
json::object health_payload(const server_state& state, const extension_hub& hub, std::size_t mcp_sessions,
                            const mcp::client_counts& in_use);

// One plugin as the config state shows it (tools, url patterns, permissions, version, tab
// state): the plugin resources' contents.
json::object plugin_description(const server_config& config, const plugin_catalog& catalog, const extension_hub& hub,
                                 const plugins::plugin& p);

// The side panel's view of the sites whose pages publish WebMCP tools (sync.full / config
// state `webmcpSites`): one entry per site with its permission key, configured permission,
// tabs and tools.
json::array webmcp_sites_payload(const config::config_file& cfg, const webmcp_directory& webmcp);

// The configured permissions of one plugin, as the plugin payload builders want them.
plugins::permission_state permissions_of(const config::config_file& cfg, const plugins::plugin& p);

// permissions.browser.permission, "off" when unset.
std::string browser_permission(const config::config_file& cfg);

}  // namespace opentabs::app
