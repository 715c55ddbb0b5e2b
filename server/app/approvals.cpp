#include "app/approvals.hpp"

#include <memory>

#include "util/clock.hpp"
#include "util/random.hpp"

namespace opentabs::app {

namespace {

// A client retrying without answering is asked again, this many rounds in all.
constexpr std::int64_t kMaxPromptRounds = 5;

decision decision_of(mcp::permission_answer a) {
  switch (a) {
    case mcp::permission_answer::allow_once: return decision::allow;
    case mcp::permission_answer::always_allow: return decision::allow_always;
    default: return decision::deny;
  }
}

tools::call_result bad_request(std::string text) { return tools::call_result::text(std::move(text), true, errc::invalid_params); }

}  // namespace

net::awaitable<approvals::outcome> approvals::ask(const permission_request& q, tools::call_options& options) {
  if (options.input && options.input->can_elicit_form()) co_return ask_in_agent(q, options);
  const auto& tool = q.tool;
  const auto& args = q.args;
  const auto& where = q.where;
  const bool panel = side_panel_.available();
  auto id = uuid_v4();
  // A caller with too many open questions is refused, and nobody else's is dropped for it.
  if (auto opened = confirm_.open(id, question_about{options.caller, tool.name, tool.plugin}); !opened)
    co_return outcome{tools::call_result::text("Tool " + tool.name + " was not asked about: " + opened.err().message, true, errc::tool_failed), {}, {}};
  // A 2025-11-25 session that declared elicitation gets the question on the call's stream
  // too; its answer goes to the same question, so whichever answers first decides, and an
  // answer after that (even once the call is over) is told it was not used.
  bool agent = false;
  if (options.elicit) {
    mcp::permission_question shown{tool.name, tool.plugin, where, &args};
    agent = options.elicit(mcp::permission_elicitation_params(shown), [this, id](const json::value* result) {
      auto read = mcp::read_permission_answer(result, "the elicitation/create result");
      if (read && *read != mcp::permission_answer::unanswered)
        return confirm_.answer(id, decision_of(*read), audit::decided_by::elicitation).notice;
      // No answer from the client and no side panel to ask: nobody is left to decide.
      if (!side_panel_.available()) confirm_.answer(id, decision::disconnected, audit::decided_by::disconnected);
      return std::string();
    });
  }
  if (!panel && !agent) {
    confirm_.forget(id);
    co_return outcome{tools::call_result::text("Tool " + tool.name + " requires approval but the extension is not connected.", true,
                                               errc::tool_failed),
                      {}, {}};
  }
  if (options.on_progress)
    options.on_progress({0, 1.0, agent ? "Waiting for user approval (in this client or the OpenTabs side panel)"
                                       : "Waiting for user approval in the OpenTabs side panel"});
  if (panel) side_panel_.ask(id, tool, args, where);
  const verdict v = co_await confirm_.wait(id, options.cancel);
  // One decision per question: the agent's dialog still open is told it was decided elsewhere.
  if (agent && v.by != audit::decided_by::elicitation && options.withdraw_elicitations)
    options.withdraw_elicitations(audit::is_person(v.by) ? "Already decided in the OpenTabs side panel: " + decision_words(v.what)
                                                         : "The question no longer needs an answer: the call " + decision_words(v.what));
  if (panel) side_panel_.settled(id, v.by);
  co_return outcome{apply(tool, v, agent), {}, audit::is_person(v.by) ? std::optional(v.by) : std::nullopt};
}

// The answer a 2026-07-28 retry carries in inputResponses (unanswered when none).
result<mcp::permission_answer> approvals::answer_in(const tools::input_round& input) {
  const json::value* answer = nullptr;
  if (input.responses) {
    const auto* responses = input.responses->if_object();
    if (!responses)
      return make_error(errc::invalid_params, "params.inputResponses must be an object mapping inputRequests keys to results, got " +
                                                  std::string(json::type_name(*input.responses)));
    answer = responses->if_contains(mcp::permission_input_key);
  }
  return mcp::read_permission_answer(answer, "params.inputResponses." + std::string(mcp::permission_input_key));
}

approvals::outcome approvals::ask_in_agent(const permission_request& q, const tools::call_options& options) {
  const auto& tool = q.tool;
  const auto& input = *options.input;
  const auto now = now_epoch_ms();
  mcp::request_binding question{tool.name, q.digest, input.client, "", 1};
  if (input.request_state) {
    auto redeemed = seal_.redeem(*input.request_state, question, now);
    if (!redeemed) return {bad_request(redeemed.err().message), {}, {}};
    const auto& prompt = redeemed->prompt;
    // The side panel had the same question: an answer there came first, and an answer this
    // retry carries lost to it (the client is told, the audit records both).
    if (auto v = confirm_.take_parked(prompt)) {
      std::string notice;
      if (auto given = answer_in(input); given && *given != mcp::permission_answer::unanswered)
        notice = confirm_.answer(prompt, decision_of(*given), audit::decided_by::elicitation).notice;
      side_panel_.settled(prompt, v->by);
      return {apply(tool, *v, true), std::move(notice), v->by};
    }
    auto given = answer_in(input);
    if (!given) return {bad_request(given.err().message), {}, {}};
    if (*given != mcp::permission_answer::unanswered) {
      const verdict v{decision_of(*given), audit::decided_by::elicitation};
      // Decides the question, so a side panel click after it is told it was not used.
      confirm_.answer(prompt, v.what, v.by);
      confirm_.take_parked(prompt);
      side_panel_.settled(prompt, v.by);
      return {apply(tool, v, true), {}, v.by};
    }
    if (redeemed->round >= kMaxPromptRounds) {
      confirm_.forget(prompt);
      side_panel_.settled(prompt, audit::decided_by::unanswered);
      return {tools::call_result::text("Tool " + tool.name + " was not approved: the permission question went unanswered " +
                                           std::to_string(kMaxPromptRounds) + " times.",
                                       true, errc::tool_failed),
              {}, {}};
    }
    question.prompt = prompt;
    question.round = redeemed->round + 1;
  } else if (input.responses) {
    return {bad_request("params.inputResponses answers no question: this server asks with a requestState, and the request carries "
                        "none; call the tool without inputResponses to be asked"),
            {}, {}};
  } else {
    question.prompt = uuid_v4();
  }
  // A caller with too many open questions is refused, and nobody else's is dropped for it.
  if (auto parked = confirm_.park(question.prompt, question_about{options.caller, tool.name, tool.plugin},
                                  std::chrono::steady_clock::now() + seal_.ttl());
      !parked)
    return {tools::call_result::text("Tool " + tool.name + " was not asked about: " + parked.err().message, true, errc::tool_failed), {}, {}};
  // The same question in the side panel; whichever answers first decides.
  if (question.round == 1) side_panel_.ask(question.prompt, tool, q.args, q.where);
  mcp::permission_question shown{tool.name, tool.plugin, q.where, &q.args};
  tools::call_result r;
  r.input_required = json::object{{"inputRequests", json::object{{mcp::permission_input_key, mcp::permission_input_request(shown)}}},
                                  {"requestState", json::str(seal_.seal(question, now))}};
  return {std::move(r), {}, {}};
}

std::optional<tools::call_result> approvals::apply(const tools::tool_def& tool, verdict v, bool agent_asked) {
  switch (v.what) {
    case decision::allow: return std::nullopt;
    case decision::allow_always:
      grants_.always_allow(tool);
      // The side panel did not see this answer: it says what changed and how to undo it.
      if (v.by == audit::decided_by::elicitation) side_panel_.always_allowed(tool);
      return std::nullopt;
    case decision::deny:
      return tools::call_result::text("Tool " + tool.name + " was denied by the user" +
                                          (agent_asked && v.by == audit::decided_by::side_panel ? " in the OpenTabs side panel." : "."),
                                      true, errc::tool_failed);
    case decision::disconnected:
      return tools::call_result::text(
          "Tool " + tool.name + " requires approval but the extension is not connected.", true, errc::tool_failed);
    case decision::cancelled: return tools::call_result::text("Tool " + tool.name + " was cancelled.", true, errc::tool_failed);
    case decision::shutdown: return tools::call_result::text("Server shutting down", true, errc::tool_failed);
  }
  return std::nullopt;
}

}  // namespace opentabs::app
