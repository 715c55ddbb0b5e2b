// The approvals seam (issue 39): an `ask` tool's permission question put to the person and
// the one decision it gets.  ask() puts the question to every asker the call has — the side
// panel (side_panel_asker), and the agent's own dialog when the client can show one: a
// 2025-11-25 session's elicitation/create (call_options::elicit) or a 2026-07-28
// InputRequiredResult answered by the retry (its requestState sealed here) — and returns
// the decision's effect on the call, or the input request.  Every answer goes through
// confirmations::answer, so the first decides and a later one is told it lost (the notice)
// and audited.  Runs on the io thread.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "app/confirmations.hpp"
#include "app/extension_hub.hpp"
#include "app/permission_grants.hpp"
#include "app/side_panel_asker.hpp"
#include "audit/decided_by.hpp"
#include "mcp/permission_prompt.hpp"
#include "mcp/request_state.hpp"
#include "tools/tool.hpp"
#include "tools/tool_service.hpp"

namespace opentabs::app {

// One permission question: the tool, its arguments as they will run, where it acts (for
// people), and the digest of the arguments as sent (binds a 2026-07-28 requestState).
struct permission_request {
  const tools::tool_def& tool;
  const json::object& args;
  std::string where;
  std::string digest;
};

class approvals {
 public:
  approvals(confirmations& confirm, extension_hub& hub, permission_grants& grants, std::chrono::milliseconds request_state_ttl)
      : confirm_(confirm), side_panel_(hub), grants_(grants), seal_(request_state_ttl) {}

  // What asking ends in.  `stop`: the call ends with this result (refused, or the
  // InputRequiredResult that asks); none: it runs.  `notice`: an answer of the caller's own
  // that lost to one given elsewhere first, told with the result.  `decided_by`: who decided,
  // when a person did (for the audit entry).
  struct outcome {
    std::optional<tools::call_result> stop;
    std::string notice;
    std::optional<audit::decided_by> decided_by;
  };
  net::awaitable<outcome> ask(const permission_request& q, tools::call_options& options);

 private:
  // The question through the agent's UI (a 2026-07-28 client that can show a form), parked
  // for the side panel too; the client's retry brings the answer.
  outcome ask_in_agent(const permission_request& q, const tools::call_options& options);
  static result<mcp::permission_answer> answer_in(const tools::input_round& input);
  // What a verdict does to the call: nullopt runs it.  A refusal names the side panel when
  // the agent was asked too, so the asker whose own answer came second learns who decided.
  std::optional<tools::call_result> apply(const tools::tool_def& tool, verdict v, bool agent_asked);

  confirmations& confirm_;
  side_panel_asker side_panel_;
  permission_grants& grants_;
  mcp::request_state_seal seal_;
};

}  // namespace opentabs::app
