// Calls of site plugins' tools (spec §3.7): the platform arguments tabId and instance are
// taken out before validation, a call addressed by instance goes to a tab matching the
// instance's URL pattern, at most kMaxConcurrentPerPlugin calls of one plugin are in
// flight, and the call goes out as tool.dispatch to the connection that owns the tab,
// with the side panel's activity feed told when it starts and ends.
#pragma once

#include <cstddef>

#include "app/extension_hub.hpp"
#include "app/plugin_catalog.hpp"
#include "app/tool_backend.hpp"

namespace opentabs::app {

inline constexpr std::size_t kMaxConcurrentPerPlugin = 25;

class plugin_backend final : public tool_backend {
 public:
  // `catalog` gives the loaded plugins (their instance maps), read at each call.
  plugin_backend(const plugin_catalog& catalog, extension_hub& hub) : catalog_(catalog), hub_(hub) {}

  // Also waits for the returning extension's tab report: a call made during a reconnect is
  // not answered "No matching tab" by an extension that has not injected its adapters yet.
  net::awaitable<void> await_ready(const tools::tool_def& tool) override { return wait_for_expected_extension(hub_, tool, true); }
  call_target take_target(json::object& args) const override;
  status check_arguments(const schema::validator& validator, const tools::tool_def& tool,
                         const json::object& args) const override;
  net::awaitable<tools::call_result> dispatch(admitted_call& call) override;

 private:
  // The tab an instance-addressed call goes to, or the caller's error text.
  result<std::int64_t> instance_tab(const tools::tool_def& tool, const std::string& instance) const;
  net::awaitable<tools::call_result> send(admitted_call& call, std::optional<std::int64_t> tab_id);

  const plugin_catalog& catalog_;
  extension_hub& hub_;
};

}  // namespace opentabs::app
