// The permission question as an elicitation (see elicitation_asker.hpp).
#include "mcp/elicitation_asker.hpp"

#include "mcp/permission_prompt.hpp"

namespace opentabs::mcp {

bool elicitation_asker::ask(const tools::permission_question& q, on_answer answered) {
  const permission_question shown{q.tool.name, q.tool.plugin, q.where, &q.args};
  return elicit_(permission_elicitation_params(shown), [answered = std::move(answered)](const json::value* result) {
    // A result that is not a usable ElicitResult answers nothing.
    auto read = read_permission_answer(result, "the elicitation/create result");
    return answered(read ? *read : tools::permission_answer::unanswered);
  });
}

void elicitation_asker::withdraw(std::string_view reason) {
  if (withdraw_) withdraw_(reason);
}

}  // namespace opentabs::mcp
