// The agent's dialog as an asker of a permission question while the call waits
// (tools::dialog_asker): the question as a form elicitation (permission_prompt) put through
// the call's elicitation channel — a 2025-11-25 session's elicitation/create on the call's
// stream, or a task's inputRequests — and the ElicitResult read back as the person's choice.
#pragma once

#include <functional>
#include <string_view>

#include "tools/permission_askers.hpp"
#include "tools/tool_service.hpp"

namespace opentabs::mcp {

class elicitation_asker final : public tools::dialog_asker {
 public:
  using elicit_fn = std::function<bool(json::object params, tools::call_options::answer_fn answer)>;
  using withdraw_fn = std::function<void(std::string_view reason)>;
  // `elicit` puts elicitation/create params to the client (call_options::elicit);
  // `withdraw` tells it the questions asked need no answer (null: nothing to withdraw them
  // with, as in a task).
  elicitation_asker(elicit_fn elicit, withdraw_fn withdraw) : elicit_(std::move(elicit)), withdraw_(std::move(withdraw)) {}

  bool ask(const tools::permission_question& q, on_answer answered) override;
  void withdraw(std::string_view reason) override;

 private:
  elicit_fn elicit_;
  withdraw_fn withdraw_;
};

}  // namespace opentabs::mcp
