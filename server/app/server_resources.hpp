// The server's own MCP resources (resource_uris.hpp names them): health, the audit log,
// each plugin, and every open tab the browser permission allows.  Tabs are listed and read
// through the tool pipeline (browser_list_tabs, browser_get_tab_info, ..._content,
// ..._screenshot_tab, browser_snapshot) on behalf of the asking client, so the same
// permission check, page-content marks, tab-group rule and audit line apply as to the tool
// calls.  Listing only calls browser_list_tabs when it runs without asking (permission
// auto) and an extension is connected: a listing never puts a question to the person
// and never waits for a browser.  Runs on the io thread.
#pragma once

#include <functional>

#include "app/extension_hub.hpp"
#include "app/resource_uris.hpp"
#include "app/server_state.hpp"
#include "app/tool_pipeline.hpp"
#include "tools/resource_service.hpp"

namespace opentabs::app {

class server_resources final : public tools::resource_service {
 public:
  // The newest audit entries opentabs://audit shows.
  static constexpr std::size_t audit_entries_shown = 50;

  // `health`: /health's payload now (it needs the MCP endpoints, built after this).
  server_resources(const server_state& state, const extension_hub& hub, tool_pipeline& pipeline, std::function<json::object()> health)
      : state_(state), hub_(hub), pipeline_(pipeline), health_(std::move(health)) {}

  net::awaitable<std::vector<tools::listed_resource>> list_resources(tools::call_options options) override;
  std::vector<tools::listed_template> list_templates() const override;
  net::awaitable<result<json::array>> read_resource(std::string uri, tools::call_options options) override;
  bool can_subscribe(std::string_view uri) const override;

 private:
  bool lists_tabs() const;
  // The plugin tools a tab has: those of every plugin whose tabs include it.
  json::array tools_of_tab(std::int64_t tab_id) const;
  result<json::array> read_own(std::string_view uri, const resource_ref& ref) const;

  const server_state& state_;
  const extension_hub& hub_;
  tool_pipeline& pipeline_;
  std::function<json::object()> health_;
};

}  // namespace opentabs::app
