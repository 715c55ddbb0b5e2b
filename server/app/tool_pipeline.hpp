// The tool-call pipeline behind /mcp, /mcp/gateway and REST (spec §3.7, §3.8, §6.3), as
// named stages of call_tool:
//   resolve  — the tool by name (with "did you mean" names when unknown);
//   admit    — permission (off refuses), platform arguments taken out (the backend's
//              take_target), the validator found and the arguments checked;
//   ready    — the backend's own wait before the call can go out (await_ready: the plugin
//              and browser backends wait a bounded time for an extension expected back);
//   confirm  — for `ask`: the approvals seam (approvals.hpp) puts the question to the side
//              panel and to the asker of the agent's own dialog the call brings, if any;
//              the first answer decides, and a later one is told it lost;
//   dispatch — through the backend of the tool's kind (tool_backend.hpp);
//   record   — the audit entry, written by one audit_record on every exit.
// Platform tools skip the gate and the audit (their backend is not behind_gate).  Runs on
// the io thread; each call is one coroutine awaiting its backend.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "app/approvals.hpp"
#include "app/audit_record.hpp"
#include "app/confirmations.hpp"
#include "app/extension_hub.hpp"
#include "app/permission_grants.hpp"
#include "app/plugin_catalog.hpp"
#include "app/server_config.hpp"
#include "audit/audit_log.hpp"
#include "app/tool_backend.hpp"
#include "tools/tool_service.hpp"

namespace opentabs::app {

class tool_pipeline final : public tools::tool_service {
 public:
  tool_pipeline(const server_config& config, const plugin_catalog& catalog, audit::audit_log& audit, extension_hub& hub, confirmations& confirm, permission_grants& grants,
                tool_backends backends);

  std::vector<tools::listed_tool> list_tools() const override;
  net::awaitable<tools::call_result> call_tool(std::string name, json::object arguments,
                                               tools::call_options options) override;
  void client_ended(std::string_view client) override;

  tools::permission effective_permission(const tools::tool_def& t) const;

 private:
  // What admit() established for a call it let through.
  struct admission {
    tools::permission permission = tools::permission::off;
    std::string digest;  // of the arguments as sent, when a requestState may answer
    call_target target;
  };
  // nullopt: admitted (into `out`); else the refusal, its audit detail already set.
  net::awaitable<std::optional<tools::call_result>> admit(const tools::tool_def& tool, tool_backend& backend,
                                                          json::object& args, const tools::call_options& options,
                                                          admission& out, audit_record& audit);
  // The tool's validator: the registry's (compiled on first use), else the backend's.
  net::awaitable<result<std::shared_ptr<const schema::validator>>> validator_of(const tools::tool_def& tool,
                                                                                tool_backend& backend);
  // The `ask` gate: the approvals seam asks; the audit entry learns who decided.
  net::awaitable<approvals::outcome> confirm(const tools::tool_def& tool, const json::object& args, const std::string& where,
                                             const std::string& digest, tools::call_options& options, audit::audit_entry& entry);
  tools::call_result disabled_result(const tools::tool_def& tool) const;

  const server_config& config_;
  const plugin_catalog& catalog_;
  audit::audit_log& audit_;
  extension_hub& hub_;
  tool_backends backends_;
  approvals approvals_;
};

}  // namespace opentabs::app
