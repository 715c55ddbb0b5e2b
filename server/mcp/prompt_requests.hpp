// prompts/list, prompts/get and completion/complete, answered the same way for a 2025-11-25
// session (through the request_methods table) and a 2026-07-28 stateless request
// (stateless_endpoint): the params parsed, an unknown prompt or a missing or undeclared
// argument refused with -32602 before the prompt is built, the prompt built by the
// prompt_service with the request's options (the client's questions go where a tools/call's
// go: a session's elicitation/create on the request's SSE stream, or a 2026-07-28
// InputRequiredResult), and the revision's result shape (resultType, and on 2026-07-28 the
// listing's caching hints).  Only /mcp offers prompts; the gateway none.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <functional>

#include "jsonrpc/jsonrpc.hpp"

#include "mcp/completion.hpp"
#include "mcp/live_session.hpp"
#include "mcp/modern_request.hpp"
#include "mcp/prompt_service.hpp"
#include "mcp/request_state.hpp"
#include "mcp/sse_stream.hpp"
#include "net/asio.hpp"

namespace opentabs::mcp {

class prompt_requests {
 public:
  // How long a client may keep prompts/list (2026-07-28 ttlMs): the prompts are fixed
  // while the server runs; what they say about tabs and plugins is built on prompts/get.
  static constexpr long long prompts_list_ttl_ms = 300'000;

  // The options a prompts/get is built with: call_runner::request_options (who asks, where
  // its questions go), passed in so this file needs no call_runner.
  using options_for = std::function<tools::call_options(const std::shared_ptr<live_session>& s, const std::shared_ptr<stream_sink>& sink,
                                                        const client_context* modern, std::optional<json::value> input_responses,
                                                        std::optional<std::string> request_state)>;

  // `prompts` null: none offered (the requests are unknown methods).  `seal`: seals the
  // requestState of a prompt's own question (2026-07-28).
  prompt_requests(asio::any_io_executor ex, prompt_service* prompts, options_for options, request_state_seal& seal);

  bool offered() const { return prompts_ != nullptr; }
  // Whether a session answers `m` over SSE: a prompts/get of a prompt that may ask the
  // person while it is built.
  bool streams(const jsonrpc::message& m) const;

  std::string list(const jsonrpc::message& m, bool modern) const;
  // `s` and `sink`: a 2025 session and the request's stream (questions go there); `modern`:
  // a 2026-07-28 request's client.
  net::awaitable<std::string> get(const jsonrpc::message& m, std::shared_ptr<live_session> s, std::shared_ptr<stream_sink> sink,
                                  const client_context* modern);
  net::awaitable<std::string> complete(const jsonrpc::message& m, bool modern) const;
  // Where completion values come from: the prompts register their arguments' sources here,
  // and so may anything else with arguments to complete (a resource template's variables).
  completion_registry& completions() { return completions_; }

 private:
  // The answers a 2026-07-28 retry carries to the prompt's own question, once its
  // requestState is redeemed; none on a first request; an error for a forged, stale or
  // replayed state.
  result<json::object> carried_answers(const prompts_get_request& req, const client_context& client);
  // The question put to a 2026-07-28 client: an InputRequiredResult with a sealed state.
  result<prompt_result> ask_in_round_trip(const prompts_get_request& req, const client_context& client, const tools::call_options& options,
                                          const prompt_question& q);
  // The question put to a session's client (elicitation/create on the request's stream):
  // the accepted content, once it answers.
  net::awaitable<result<json::object>> ask_in_session(const tools::call_options& options, const prompt_question& q);

  asio::any_io_executor ex_;
  prompt_service* prompts_;
  request_state_seal& seal_;
  options_for options_;
  completion_registry completions_;
};

}  // namespace opentabs::mcp
