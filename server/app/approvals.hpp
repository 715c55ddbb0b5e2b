// The approvals seam (issue 39): an `ask` tool's permission question put to the person and
// the one decision it gets.  ask() puts the question to the side panel (side_panel_asker)
// and to the agent's own dialog when the call brings an asker for it
// (tools/permission_askers.hpp; the MCP ones live in server/mcp): one that shows it while
// the call waits (call_options::dialog), or one that ends the call with an input request
// whose retry brings the answer (call_options::round_trip).  It returns the decision's effect
// on the call, or the input request.  Every answer goes through confirmations::answer, so
// the first decides and a later one is told it lost (the notice) and audited.  Runs on the
// io thread.
#pragma once

#include <optional>
#include <string>

#include "app/confirmations.hpp"
#include "app/extension_hub.hpp"
#include "app/permission_grants.hpp"
#include "app/side_panel_asker.hpp"
#include "audit/decided_by.hpp"
#include "tools/permission_askers.hpp"
#include "tools/tool.hpp"
#include "tools/tool_service.hpp"

namespace opentabs::app {

class approvals {
 public:
  approvals(confirmations& confirm, extension_hub& hub, permission_grants& grants) : confirm_(confirm), side_panel_(hub), grants_(grants) {}

  // What asking ends in.  `stop`: the call ends with this result (refused, or the
  // InputRequiredResult that asks); none: it runs.  `notice`: an answer of the caller's own
  // that lost to one given elsewhere first, told with the result.  `decided_by`: who decided,
  // when a person did (for the audit entry).
  struct outcome {
    std::optional<tools::call_result> stop;
    std::string notice;
    std::optional<audit::decided_by> decided_by;
  };
  // Without a round trip the call waits here for the first answer.
  net::awaitable<outcome> ask(const tools::permission_question& q, tools::call_options& options);

 private:
  // The question through a round trip (a client that can show a form and retries), parked
  // for the side panel too: the first request ends with the input request, a retry brings
  // the answer or collects the side panel's.
  outcome ask_across_round_trip(const tools::permission_question& q, tools::round_trip_asker& agent, const std::string& caller);
  // What a verdict does to the call: nullopt runs it.  A refusal names the side panel when
  // the agent was asked too, so the asker whose own answer came second learns who decided.
  std::optional<tools::call_result> apply(const tools::tool_def& tool, verdict v, bool agent_asked);

  confirmations& confirm_;
  side_panel_asker side_panel_;
  permission_grants& grants_;
};

}  // namespace opentabs::app
