// The prompt and completion requests of both revisions (see prompt_requests.hpp).
#include "mcp/prompt_requests.hpp"

#include "mcp/requests.hpp"
#include "net/event.hpp"
#include "util/clock.hpp"

namespace opentabs::mcp {

using jsonrpc::error_json;
using jsonrpc::response_json;
using jsonrpc::rpc_error;

namespace {

// What a prompt's question is sealed with: the prompt, its arguments and the client.
request_binding question_binding(const prompts_get_request& req, const client_context& client) {
  return {"prompts/get " + req.name, arguments_digest(req.arguments), client.client_name, "prompt-question", 1};
}

// The accepted content of an ElicitResult, or why there is none.
result<json::object> accepted_content(const json::value* answer, const prompt_question& q) {
  const auto& key = q.key;
  const auto* o = answer ? answer->if_object() : nullptr;
  const auto* action = o ? json::get_string(*o, "action") : nullptr;
  if (!action) return make_error(errc::invalid_params, "the answer to " + std::string(key) + " is not an ElicitResult ({\"action\":\"accept\",\"content\":{...}})");
  if (*action != "accept") return make_error(errc::cancelled, q.unanswered + ": the person did not answer the question (" + std::string(*action) + ")");
  const auto* content = json::get_object(*o, "content");
  if (!content) return make_error(errc::invalid_params, "the accepted answer to " + std::string(key) + " has no content");
  return *content;
}

}  // namespace

prompt_requests::prompt_requests(asio::any_io_executor ex, prompt_service* prompts, options_for options, request_state_seal& seal)
    : ex_(std::move(ex)), prompts_(prompts), seal_(seal), options_(std::move(options)) {
  if (prompts_) prompts_->register_completions(completions_);
}

bool prompt_requests::streams(const jsonrpc::message& m) const {
  if (!prompts_ || m.method != "prompts/get") return false;
  const auto* name = json::get_string(m.params(), "name");
  return name && prompts_->asks_client(*name);
}

std::string prompt_requests::list(const jsonrpc::message& m, bool modern) const {
  auto p = parse_tools_list(m.params());
  if (!p) return error_json(m.id, p.error);
  auto listing = json::dump(prompts_list_result(prompts_->list_prompts()));
  if (!modern) return response_json(m.id, listing);
  return response_json(m.id, with_leading_fields(listing, cacheable_fields(prompts_list_ttl_ms, "public")));
}

net::awaitable<std::string> prompt_requests::get(const jsonrpc::message& m, std::shared_ptr<live_session> s, std::shared_ptr<stream_sink> sink,
                                                 const client_context* modern) {
  auto p = parse_prompts_get(m.params());
  if (!p) co_return error_json(m.id, p.error);
  auto& req = *p.value;
  if (!modern && (req.input_responses || req.request_state))
    co_return error_json(m.id, rpc_error::invalid_params("params.inputResponses", "and params.requestState belong to protocol revision " +
                                                                                     std::string(modern_protocol_version) + ", not to a session"));
  const auto prompts = prompts_->list_prompts();
  const auto* def = find_prompt(prompts, req.name);
  if (!def) co_return error_json(m.id, unknown_prompt(req.name, prompts));
  if (auto wrong = check_prompt_arguments(*def, req.arguments)) co_return error_json(m.id, *wrong);
  auto answers = modern ? carried_answers(req, *modern) : result<json::object>(json::object{});
  if (!answers) co_return error_json(m.id, rpc_error::from(answers.err()));
  auto options = options_(s, sink, modern, req.input_responses, req.request_state);
  auto answer = co_await prompts_->get_prompt(req.name, req.arguments, *answers, options);
  if (answer && answer->question) {
    const auto q = *answer->question;
    if (modern) {
      answer = ask_in_round_trip(req, *modern, options, q);
    } else if (auto content = co_await ask_in_session(options, q); !content) {
      answer = content.err();
    } else {
      (*answers)[q.key] = std::move(*content);
      answer = co_await prompts_->get_prompt(req.name, req.arguments, *answers, options);
    }
  }
  co_return prompts_get_response(m.id, answer, modern != nullptr);
}

result<json::object> prompt_requests::carried_answers(const prompts_get_request& req, const client_context& client) {
  const auto* responses = req.input_responses ? req.input_responses->if_object() : nullptr;
  json::object answers;
  for (const auto& key : prompts_->question_keys(req.name)) {
    const auto* given = responses ? responses->if_contains(key) : nullptr;
    if (!given) continue;
    if (!req.request_state) return make_error(errc::invalid_params, "params.inputResponses." + key + " needs the requestState it was asked with");
    auto redeemed = seal_.redeem(*req.request_state, question_binding(req, client), now_epoch_ms());
    if (!redeemed) return redeemed.err();
    auto content = accepted_content(given, prompt_question{key, {}, "Prompt " + req.name});
    if (!content) return content.err();
    answers[key] = std::move(*content);
  }
  return answers;
}

result<prompt_result> prompt_requests::ask_in_round_trip(const prompts_get_request& req, const client_context& client,
                                                         const tools::call_options& options, const prompt_question& q) {
  if (!options.input || !options.input->can_elicit_form())
    return make_error(errc::invalid_params, q.unanswered + ": the client declared no form elicitation to ask the person");
  prompt_result asked;
  asked.input_required = json::object{
      {"inputRequests", json::object{{q.key, json::object{{"method", "elicitation/create"}, {"params", q.form}}}}},
      {"requestState", json::str(seal_.seal(question_binding(req, client), now_epoch_ms()))}};
  return asked;
}

net::awaitable<result<json::object>> prompt_requests::ask_in_session(const tools::call_options& options, const prompt_question& q) {
  if (!options.elicit)
    co_return make_error(errc::invalid_params, q.unanswered + ": the client declared no form elicitation to ask the person");
  struct waiting {
    explicit waiting(asio::any_io_executor ex) : done(std::move(ex)) {}
    net::event done;
    bool answered = false;
    std::optional<json::value> result;
  };
  auto w = std::make_shared<waiting>(ex_);
  auto sent = options.elicit(q.form, [w](const json::value* r) {
    if (w->answered) return std::string("the prompt was already built");
    w->answered = true;
    if (r) w->result = json::copy_out(*r);
    w->done.notify_all();
    return std::string();
  });
  if (!sent) co_return make_error(errc::unavailable, q.unanswered + ": the question could not be sent to the client");
  if (options.cancel)
    options.cancel->on_cancel([w] {
      w->answered = true;
      w->done.notify_all();
    });
  while (!w->answered) co_await w->done.wait();
  if (options.cancel) options.cancel->clear_hook();
  co_return accepted_content(w->result ? &*w->result : nullptr, q);
}

net::awaitable<std::string> prompt_requests::complete(const jsonrpc::message& m, bool modern) const {
  auto p = parse_complete(m.params());
  if (!p) co_return error_json(m.id, p.error);
  const auto& req = *p.value;
  if (req.kind == completion_ref_kind::prompt) {
    const auto prompts = prompts_->list_prompts();
    if (!find_prompt(prompts, req.ref)) co_return error_json(m.id, unknown_prompt(req.ref, prompts));
  }
  auto completed = completions_.complete(req);
  auto result = co_await std::move(completed);
  if (modern) result["resultType"] = "complete";
  co_return response_json(m.id, result);
}

}  // namespace opentabs::mcp
