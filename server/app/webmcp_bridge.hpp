// The server's WebMCP feature: takes the extension's reports of the tools web pages publish
// (webmcp.frameTools / webmcp.syncAll / webmcp.tabRemoved, extension/PROTOCOL-WEBMCP.md)
// into the directory, keeps the tool registry's WebMCP part in step and announces changes
// (tools/list_changed, plugins.changed for the side panel), and carries calls of those
// tools to the right tab and frame (webmcp.callTool), after the pipeline's permission gate
// and argument validation.  Runs on the io thread.
#pragma once

#include <functional>
#include <string>

#include "app/extension_hub.hpp"
#include "app/server_state.hpp"
#include "audit/audit_entry.hpp"
#include "tools/events.hpp"
#include "tools/tool_service.hpp"

namespace opentabs::app {

class webmcp_bridge {
 public:
  // `announce_sites` broadcasts the config state after the set of sites changed.
  webmcp_bridge(server_state& state, extension_hub& hub, tools::server_events& events,
                std::function<void()> announce_sites);

  // One inbound webmcp.* message.  Requests get a reply naming accepted and rejected tools.
  extension_hub::inbound_outcome handle(ext_connection& c, const std::string& method, const json::object& params,
                                        const json::value* id);
  void connection_closed(const std::string& connection_id);

  // A call that passed the pipeline's gate and validation.
  net::awaitable<tools::call_result> call(const tools::tool_def& tool, json::object args,
                                          tools::call_options& options, audit::audit_entry& audit);

 private:
  void publish();

  server_state& state_;
  extension_hub& hub_;
  tools::server_events& events_;
  std::function<void()> announce_sites_;
};

// The side panel's view (sync.full / config state `webmcpSites`): one entry per site with its
// permission key, configured permission, tabs and tools.
json::array webmcp_sites_payload(const server_state& state);

}  // namespace opentabs::app
