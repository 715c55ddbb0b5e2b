// The tool-call pipeline behind /mcp, /mcp/gateway and REST (spec §3.7, §3.8, §6.3):
// lookup → permission gate (off / ask with confirmation / auto; an ask goes to the side
// panel, and to the agent's own UI when its client can show a form) → argument validation →
// per-plugin concurrency cap → tool.invocationStart → dispatch to the extension →
// result mapping → tool.invocationEnd → audit.  Runs on the io thread; each call is one
// coroutine awaiting the extension hub.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "app/confirmations.hpp"
#include "app/extension_hub.hpp"
#include "app/server_state.hpp"
#include "mcp/request_state.hpp"
#include "tools/events.hpp"
#include "tools/tool_service.hpp"

namespace opentabs::app {

// Server-side parts of browser tools (exec files, screenshots, HAR, ...): a handler gets
// the first look at every validated browser-tool call and may serve it.
class browser_tool_handler {
 public:
  virtual ~browser_tool_handler() = default;
  virtual net::awaitable<std::optional<tools::call_result>> call(const tools::tool_def& tool, json::object& args,
                                                                 tools::call_options& options) = 0;
};

class tool_pipeline final : public tools::tool_service {
 public:
  tool_pipeline(server_state& state, extension_hub& hub, confirmations& confirm, tools::server_events& events);

  std::vector<tools::listed_tool> list_tools() const override;
  net::awaitable<tools::call_result> call_tool(std::string name, json::object arguments,
                                               tools::call_options options) override;

  void set_browser_handler(std::unique_ptr<browser_tool_handler> h) { browser_handler_ = std::move(h); }
  // Platform tools (plugin_inspect, plugin_mark_reviewed) are served by this function.
  using platform_fn = std::function<net::awaitable<tools::call_result>(const tools::tool_def&, const json::object&)>;
  void set_platform_handler(platform_fn f) { platform_ = std::move(f); }
  // WebMCP page tools (tool_kind::webmcp) are dispatched by this function after the gate.
  using webmcp_fn = std::function<net::awaitable<tools::call_result>(const tools::tool_def&, json::object,
                                                                    tools::call_options&, audit::audit_entry&)>;
  void set_webmcp_handler(webmcp_fn f) { webmcp_ = std::move(f); }
  // The validator of a WebMCP tool whose registry entry has none yet: page schemas are
  // compiled only once a call got past the permission gate (the site is enabled), and off
  // the io thread.  Errors carry the text the caller sees.
  using webmcp_validator_fn =
      std::function<net::awaitable<result<std::shared_ptr<const schema::validator>>>(const tools::tool_def&)>;
  void set_webmcp_validator(webmcp_validator_fn f) { webmcp_validator_ = std::move(f); }
  // Called after "always allow" changed a permission (persist, reload, notify).
  void set_on_always_allow(std::function<void(const tools::tool_def&)> f) { on_always_allow_ = std::move(f); }

  tools::permission effective_permission(const tools::tool_def& t) const;

  // plugin_list_tabs: the merged tab maps of every connection.
  json::value list_plugin_tabs(const std::string& plugin) const;

 private:
  net::awaitable<tools::call_result> dispatch_plugin(const tools::tool_def& tool, json::object args,
                                                     std::optional<std::int64_t> tab_id, const std::string& instance,
                                                     tools::call_options& options, audit::audit_entry& audit);
  net::awaitable<tools::call_result> dispatch_browser(const tools::tool_def& tool, json::object args,
                                                      tools::call_options& options, audit::audit_entry& audit);
  // The `ask` gate: nullopt lets the call run; a result ends it (refused, or input_required).
  net::awaitable<std::optional<tools::call_result>> confirm(const tools::tool_def& tool, const json::object& args,
                                                            const std::string& where, const std::string& digest,
                                                            tools::call_options& options, audit::audit_entry& entry);
  // The question put through the agent's UI (a 2026-07-28 client that can show a form) and
  // parked for the side panel too; the client's retry brings the answer.
  std::optional<tools::call_result> ask_in_agent(const tools::tool_def& tool, const json::object& args, const std::string& where,
                                                 const std::string& digest, const tools::input_round& input,
                                                 audit::audit_entry& entry);
  // confirmation.request to every extension connection (the side panel shows it).
  void ask_side_panel(const std::string& id, const tools::tool_def& tool, const json::object& args);
  // Tells every side panel that question `id` needs no answer any more, and who decided
  // ("side_panel", "elicitation", "cancelled", …), so a question the agent's UI answered
  // does not wait there for a click that would change nothing.  The original extension
  // drops the notification (not in its allow-list); ours removes the entry.
  void withdraw_side_panel_question(const std::string& id, std::string_view decided_by);
  // What a decision does to the call: nullopt runs it.
  std::optional<tools::call_result> apply_decision(const tools::tool_def& tool, decision d);
  tools::call_result disabled_result(const tools::tool_def& tool) const;
  // Why a call that needs the browser failed when no extension is connected, and what to do.
  std::string not_connected_text() const;
  void record(audit::audit_entry& entry, const tools::call_result& result);

  server_state& state_;
  extension_hub& hub_;
  confirmations& confirm_;
  [[maybe_unused]] tools::server_events& events_;  // held for the pipeline redesign; nothing reads it yet
  std::unique_ptr<browser_tool_handler> browser_handler_;
  platform_fn platform_;
  webmcp_fn webmcp_;
  webmcp_validator_fn webmcp_validator_;
  std::function<void(const tools::tool_def&)> on_always_allow_;
  mcp::request_state_seal seal_;
};

}  // namespace opentabs::app
