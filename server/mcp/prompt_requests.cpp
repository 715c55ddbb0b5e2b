// The prompt and completion requests of both revisions (see prompt_requests.hpp).
#include "mcp/prompt_requests.hpp"

#include "mcp/requests.hpp"

namespace opentabs::mcp {

using jsonrpc::error_json;
using jsonrpc::response_json;
using jsonrpc::rpc_error;

prompt_requests::prompt_requests(prompt_service* prompts, options_for options) : prompts_(prompts), options_(std::move(options)) {
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
  auto options = options_(s, sink, modern, std::move(req.input_responses), std::move(req.request_state));
  auto built = prompts_->get_prompt(std::move(req.name), std::move(req.arguments), std::move(options));
  auto answer = co_await std::move(built);
  co_return prompts_get_response(m.id, answer, modern != nullptr);
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
