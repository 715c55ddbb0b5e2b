// Prompts (MCP prompts/list, prompts/get): what a prompt is, the interface whoever offers
// prompts implements (the app's browser prompts, the conformance fixtures in front of
// them), and the sans-I/O rules the endpoint applies to every prompt the same way: the
// params of prompts/get, its arguments checked against the prompt's declared ones, and the
// JSON of the listing and of a GetPromptResult.  Clients such as Claude Code show each
// prompt as a slash command (/mcp__opentabs__<name>) with its arguments.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "json/json.hpp"
#include "jsonrpc/jsonrpc.hpp"
#include "net/asio.hpp"
#include "tools/tool_service.hpp"
#include "util/result.hpp"

namespace opentabs::mcp {

class completion_registry;

struct prompt_argument {
  std::string name;
  std::string description;
  bool required = false;
};

struct prompt_def {
  std::string name;
  std::string title;  // "" when the prompt has none
  std::string description;
  std::vector<prompt_argument> arguments;
  json::object to_json() const;  // a Prompt of prompts/list
};

// A question a prompt needs the person to answer before it can be built: an elicitation
// form.  prompt_requests puts it to the client the revision's way (a session's
// elicitation/create, a 2026-07-28 InputRequiredResult with a sealed requestState) and has
// the prompt built again with the accepted content under `key` in its answers.
struct prompt_question {
  std::string key;
  json::object form;  // the elicitation/create params
  // What the person is told when no answer can come (the client cannot ask, or the person
  // declined), e.g. "Prompt build_plugin needs the site argument".
  std::string unanswered;
};

// A prompts/get answered: the GetPromptResult's messages (PromptMessage[]); or a question
// for the person first; or, passed through as they are, the InputRequiredResult's fields
// (inputRequests, requestState) of a question asked on the way (a tool call's permission).
struct prompt_result {
  std::string description;
  json::array messages;
  std::optional<prompt_question> question;
  std::optional<json::object> input_required;

  static prompt_result text(std::string description, std::string text);
};

class prompt_service {
 public:
  virtual ~prompt_service() = default;
  // Every prompt, in a stable order.
  virtual std::vector<prompt_def> list_prompts() const = 0;
  // Builds prompt `name` with `arguments` already checked against its definition
  // (check_prompt_arguments) and `answers` to its own questions so far (prompt_question key ->
  // the accepted content).  `options` carries who asks, where its tool calls' questions go
  // and its cancellation.  Expected failures (a tab that does not exist, a plugin that is
  // not installed) are errors: invalid_params for what the arguments name, others by
  // category.
  virtual net::awaitable<result<prompt_result>> get_prompt(std::string name, json::object arguments, json::object answers,
                                                           tools::call_options options) = 0;
  // The keys of the questions prompt `name` may ask (prompt_question::key): a 2026-07-28
  // retry that answers one must carry the requestState sealed with the question.
  virtual std::vector<std::string> question_keys(std::string_view name) const = 0;
  // Registers the completion sources of the prompts' arguments (and of any resource
  // template variable the same sources serve).
  virtual void register_completions(completion_registry& registry) = 0;
  // Whether prompt `name` asks the person through the client while it is built (a 2025
  // session then answers it over SSE, where elicitation/create can go).
  virtual bool asks_client(std::string_view name) const = 0;
};

// The prompt named `name` among `prompts`, or null.
const prompt_def* find_prompt(const std::vector<prompt_def>& prompts, std::string_view name);

// prompts/get's params: name (required string), arguments (an object of strings), and for
// a 2026-07-28 retry inputResponses and requestState.
struct prompts_get_request {
  std::string name;
  json::object arguments;
  std::optional<json::value> input_responses;
  std::optional<std::string> request_state;
};
jsonrpc::parsed<prompts_get_request> parse_prompts_get(const json::object& params);

// The arguments measured against the prompt's declaration: every required one present and
// non-empty, none undeclared (each a string, parse_prompts_get saw to that).  The error is
// -32602 naming the argument and what the prompt takes.
std::optional<jsonrpc::rpc_error> check_prompt_arguments(const prompt_def& prompt, const json::object& arguments);

// The -32602 of a prompt that does not exist, naming the ones that do.
jsonrpc::rpc_error unknown_prompt(std::string_view name, const std::vector<prompt_def>& prompts);

// {"prompts":[...]} in list order.
json::object prompts_list_result(const std::vector<prompt_def>& prompts);
// The prompts/get response: a GetPromptResult, an InputRequiredResult (2026-07-28), or the
// error the failure maps to (jsonrpc::code_for).  `modern`: the result starts with
// "resultType":"complete".
std::string prompts_get_response(const json::value& id, const result<prompt_result>& answer, bool modern);

}  // namespace opentabs::mcp
