// The server's WebMCP feature: takes the extension's reports of the tools web pages publish
// (webmcp.frameTools / webmcp.syncAll / webmcp.tabRemoved, extension/PROTOCOL-WEBMCP.md)
// into the directory, keeps the tool registry's WebMCP part in step and announces changes
// (tools/list_changed, plugins.changed for the side panel), and carries calls of those
// tools to the right tab and frame (webmcp.callTool), after the pipeline's permission gate
// and argument validation.  Runs on the io thread, except for compiling page schemas: that
// happens on first use (once the site is enabled) on the server's blocking pool, so a costly
// schema never holds up other requests.
#pragma once

#include <memory>
#include <string>

#include "app/announcer.hpp"
#include "app/extension_hub.hpp"
#include "app/tool_registry.hpp"
#include "app/webmcp_directory.hpp"
#include "app/tool_backend.hpp"
#include "audit/audit_entry.hpp"
#include "net/blocking_pool.hpp"
#include "tools/events.hpp"
#include "tools/tool_service.hpp"

namespace opentabs::app {

// The backend of tool_kind::webmcp.
class webmcp_bridge final : public tool_backend {
 public:
  // After the set of page tools changed, `announce` tells the MCP sessions (tools/list_changed)
  // and the side panel (plugins.changed: its site list).  `pool` compiles the page schemas.
  webmcp_bridge(webmcp_directory& webmcp, tool_registry& registry, extension_hub& hub, announcer& announce,
                net::blocking_pool& pool);

  // Adds webmcp.frameTools, webmcp.syncAll and webmcp.tabRemoved to the hub's method
  // table.  Requests get a reply naming accepted and rejected tools.
  void register_methods(extension_hub::method_table& table);
  void connection_closed(const std::string& connection_id);

  // The validator of a WebMCP tool's inputSchema, compiled on the pool the first
  // time a call needs it and kept for the registration.  Errors carry the caller's text:
  // errc::not_found when the page no longer offers the tool, errc::unsupported when its
  // schema was refused (the message says why).
  net::awaitable<result<std::shared_ptr<const schema::validator>>> validator_for(const tools::tool_def& tool) override;

  net::awaitable<tools::call_result> dispatch(admitted_call& call) override {
    return call_page_tool(call.tool, std::move(call.args), call.options, call.audit);
  }
  // A call that passed the pipeline's gate and validation.
  net::awaitable<tools::call_result> call_page_tool(const tools::tool_def& tool, json::object args,
                                          tools::call_options& options, audit::audit_entry& audit);

 private:
  // One inbound webmcp.* message, its directory change already computed by `change`.
  extension_hub::inbound_outcome apply(const std::string& method, result<webmcp_update> update, const json::value* id);
  void publish();

  webmcp_directory& webmcp_;  // the pages' tools (this bridge alone changes it)
  tool_registry& registry_;   // told the WebMCP tools after each change
  extension_hub& hub_;
  announcer& announce_;
  net::blocking_pool& pool_;
};

}  // namespace opentabs::app
