// The approvals seam (see approvals.hpp).
#include "app/approvals.hpp"

#include <memory>

#include "util/random.hpp"

namespace opentabs::app {

namespace {

// A client retrying without answering is asked again, this many rounds in all.
constexpr std::int64_t kMaxPromptRounds = 5;

decision decision_of(tools::permission_answer a) {
  switch (a) {
    case tools::permission_answer::allow_once: return decision::allow;
    case tools::permission_answer::always_allow: return decision::allow_always;
    default: return decision::deny;
  }
}

tools::call_result bad_request(std::string text) { return tools::call_result::text(std::move(text), true, errc::invalid_params); }

}  // namespace

net::awaitable<approvals::outcome> approvals::ask(const tools::permission_question& q, tools::call_options& options) {
  if (options.round_trip) co_return ask_across_round_trip(q, *options.round_trip, options.caller);
  const auto& tool = q.tool;
  const auto& args = q.args;
  const auto& where = q.where;
  const bool panel = side_panel_.available();
  auto id = uuid_v4();
  // A caller with too many open questions is refused, and nobody else's is dropped for it.
  if (auto opened = confirm_.open(id, question_about{options.caller, tool.name, tool.plugin}); !opened)
    co_return outcome{tools::call_result::text("Tool " + tool.name + " was not asked about: " + opened.err().message, true, errc::tool_failed), {}, {}};
  // The agent's dialog, when the call has one, gets the question too; its answer goes to the same question, so whichever answers first decides, and an
  // answer after that (even once the call is over) is told it was not used.
  const bool agent = options.dialog && options.dialog->ask(q, [this, id](tools::permission_answer given) {
    if (given != tools::permission_answer::unanswered) return confirm_.answer(id, decision_of(given), audit::decided_by::elicitation).notice;
    // No answer from the client and no side panel to ask: nobody is left to decide.
    if (!side_panel_.available()) confirm_.answer(id, decision::disconnected, audit::decided_by::disconnected);
    return std::string();
  });
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
  if (agent && v.by != audit::decided_by::elicitation)
    options.dialog->withdraw(audit::is_person(v.by) ? "Already decided in the OpenTabs side panel: " + decision_words(v.what)
                                                    : "The question no longer needs an answer: the call " + decision_words(v.what));
  if (panel) side_panel_.settled(id, v.by);
  co_return outcome{apply(tool, v, agent), {}, audit::is_person(v.by) ? std::optional(v.by) : std::nullopt};
}

approvals::outcome approvals::ask_across_round_trip(const tools::permission_question& q, tools::round_trip_asker& agent,
                                                   const std::string& caller) {
  const auto& tool = q.tool;
  auto brought = agent.bring(q);
  if (!brought) return {bad_request(brought.err().message), {}, {}};
  std::string prompt = std::move(brought->prompt);
  std::int64_t round = 1;
  if (!prompt.empty()) {
    const auto& given = brought->answer;
    // The side panel had the same question: an answer there came first, and an answer this
    // retry carries lost to it (the client is told, the audit records both).
    if (auto v = confirm_.take_parked(prompt)) {
      std::string notice;
      if (given && *given != tools::permission_answer::unanswered)
        notice = confirm_.answer(prompt, decision_of(*given), audit::decided_by::elicitation).notice;
      side_panel_.settled(prompt, v->by);
      return {apply(tool, *v, true), std::move(notice), v->by};
    }
    if (!given) return {bad_request(given.err().message), {}, {}};
    if (*given != tools::permission_answer::unanswered) {
      const verdict v{decision_of(*given), audit::decided_by::elicitation};
      // Decides the question, so a side panel click after it is told it was not used.
      confirm_.answer(prompt, v.what, v.by);
      confirm_.take_parked(prompt);
      side_panel_.settled(prompt, v.by);
      return {apply(tool, v, true), {}, v.by};
    }
    if (brought->round >= kMaxPromptRounds) {
      confirm_.forget(prompt);
      side_panel_.settled(prompt, audit::decided_by::unanswered);
      return {tools::call_result::text("Tool " + tool.name + " was not approved: the permission question went unanswered " +
                                           std::to_string(kMaxPromptRounds) + " times.",
                                       true, errc::tool_failed),
              {}, {}};
    }
    round = brought->round + 1;
  } else {
    prompt = uuid_v4();
  }
  // A caller with too many open questions is refused, and nobody else's is dropped for it.
  if (auto parked = confirm_.park(prompt, question_about{caller, tool.name, tool.plugin}, std::chrono::steady_clock::now() + agent.patience());
      !parked)
    return {tools::call_result::text("Tool " + tool.name + " was not asked about: " + parked.err().message, true, errc::tool_failed), {}, {}};
  // The same question in the side panel; whichever answers first decides.
  if (round == 1) side_panel_.ask(prompt, tool, q.args, q.where);
  tools::call_result r;
  r.input_required = agent.input_request(q, prompt, round);
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
