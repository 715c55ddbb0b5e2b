// Calls of the built-in browser tools (spec §5): defaults filled and the arguments put in
// the extension contract's wire shape (extension/PROTOCOL.md), plugin_list_tabs answered
// here, the server-side tools (browser_tool_handler) given the first look, and the rest
// sent as their browser.* request — to one connection, or for ★ tools (fan_out) to every
// connection at once with the answers merged (fan_out_results.hpp).
#pragma once

#include <optional>

#include "app/client_tabs.hpp"
#include "app/extension_hub.hpp"
#include "app/plugin_catalog.hpp"
#include "app/tool_backend.hpp"

namespace opentabs::app {

// Server-side parts of browser tools (exec files, screenshots, HAR, ...): a handler gets
// the first look at every validated browser-tool call and may serve it (nullopt: not its tool).
class browser_tool_handler {
 public:
  virtual ~browser_tool_handler() = default;
  virtual net::awaitable<std::optional<tools::call_result>> call(const tools::tool_def& tool, json::object& args,
                                                                 tools::call_options& options) = 0;
};

class browser_backend final : public tool_backend {
 public:
  // `catalog` gives the loaded plugins (plugin_list_tabs), read at each call; `holders`
  // learns which client opened or used which tab.
  browser_backend(const plugin_catalog& catalog, extension_hub& hub, browser_tool_handler& handler, client_tabs& holders)
      : catalog_(catalog), hub_(hub), handler_(handler), holders_(holders) {}

  net::awaitable<void> await_ready(const tools::tool_def& tool) override { return wait_for_expected_extension(hub_, tool, false); }
  net::awaitable<tools::call_result> dispatch(admitted_call& call) override;
  // Forgets the client's tabs and tells every extension (browser.clientEnded, ours), which
  // keeps, ungroups or closes the client's tab group as the person chose.
  void client_ended(std::string_view client) override;

 private:
  // One connection (the tab's owner, the named connectionId, or the hub's choice).
  net::awaitable<tools::call_result> ask_one(admitted_call& call);
  // Every connection at once; one failing profile is reported, not dropped.
  net::awaitable<tools::call_result> ask_every(admitted_call& call);
  // Who holds the tab the answered call opened or closed.
  void note_holder(const admitted_call& call, std::optional<std::int64_t> tab, const json::value& result);

  const plugin_catalog& catalog_;
  extension_hub& hub_;
  browser_tool_handler& handler_;
  client_tabs& holders_;
};

}  // namespace opentabs::app
