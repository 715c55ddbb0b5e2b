// The one pipeline every caller uses to list and call tools: MCP (/mcp), the gateway's
// opentabs_call, and REST (/tools/:name/call).  Implemented by the app (permission gate,
// confirmation, validation, dispatch to the extension, audit); the transports only
// translate.  Everything runs on the server's io_context thread.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <asio/awaitable.hpp>

#include "json/json.hpp"
#include "tools/permission_askers.hpp"
#include "util/errc.hpp"

namespace opentabs::tools {

// Lets a caller abandon a call (MCP notifications/cancelled, client gone).  The pipeline
// registers what to undo; cancel() runs it at most once.
class cancel_source {
 public:
  void cancel() {
    if (cancelled_) return;
    cancelled_ = true;
    if (hook_) {
      auto h = std::move(hook_);
      h();
    }
  }
  bool cancelled() const { return cancelled_; }
  void on_cancel(std::function<void()> hook) { hook_ = std::move(hook); }
  void clear_hook() { hook_ = nullptr; }

 private:
  bool cancelled_ = false;
  std::function<void()> hook_;
};

struct progress_update {
  double progress = 0;
  std::optional<double> total;
  std::string message;  // empty: none
};

// Whether client capabilities declare form elicitation: an empty elicitation capability means
// form mode (the revisions before modes existed); a client that lists modes lists "form".
bool can_elicit_form(const json::object& client_capabilities);

// What a 2026-07-28 request brings for multi round-trip input (MRTR): what its client can
// answer, who it is, and on a retry the answers and the echoed requestState.  Only MCP
// requests of that revision carry one; the pipeline may then answer with
// call_result::input_required instead of waiting for the side panel.
struct input_round {
  json::object client_capabilities;  // _meta clientCapabilities of the request
  std::string client;                // clientInfo.name ("" when absent)
  std::optional<json::value> responses;  // params.inputResponses as sent
  std::optional<std::string> request_state;

  bool can_elicit_form() const { return tools::can_elicit_form(client_capabilities); }
  bool declares(std::string_view capability) const { return client_capabilities.contains(capability); }
};

struct call_options {
  // Called for each progress report; null when the caller cannot forward progress
  // (MCP: no progressToken; REST).
  std::function<void(const progress_update&)> on_progress;
  std::shared_ptr<cancel_source> cancel;  // may be null
  std::string origin = "mcp";              // "mcp", "gateway", "rest" — for logs
  std::string client;                      // the caller's clientInfo.name ("" unknown): its tab group
  // Who the caller is as far as the transport can vouch (its credential and name, its
  // session, "rest"): what per-caller budgets, such as open permission questions, are
  // keyed by, so no client can spend another's by calling itself by the same name.
  std::string caller;
  std::shared_ptr<const input_round> input;  // null: not a 2026-07-28 MCP request
  // A client that can show a form (a 2025-11-25 session that declared elicitation, or a task
  // of a client that did): puts `params` to the user as an elicitation/create request on the
  // call's own stream (or the task's inputRequests); `answer` later gets the client's result
  // (null: it answered with an error, or the session or stream ended).  False when the
  // question could not be sent.  Null when the caller has no such channel.  `answer` returns
  // what the client is to be told when its answer was not used (the question was decided
  // elsewhere first), else "": it is called for an answer that arrives after the question
  // was withdrawn, too.
  using answer_fn = std::function<std::string(const json::value* result)>;
  std::function<bool(json::object params, answer_fn answer)> elicit;
  // Where the call's permission question goes besides the side panel (the approvals seam's
  // askers, tools/permission_askers.hpp): the agent's dialog while the call waits, or across
  // a round trip that the client's retry completes.  At most one is set; null: only the side
  // panel can be asked.
  std::shared_ptr<dialog_asker> dialog;
  std::shared_ptr<round_trip_asker> round_trip;
  // Like `elicit`, a sampling/createMessage request to a 2025-11-25 session's client that
  // declared sampling (the client's model answers); null otherwise.
  std::function<bool(json::object params, answer_fn answer)> sample;
};

// A CallToolResult: MCP content blocks plus isError.
struct call_result {
  json::array content;
  bool is_error = false;
  // Why the call failed, as a category each transport maps once: REST through
  // net::http_status_for (none: 200), MCP by treating not_found (an unknown tool) as a
  // protocol error.  tool_failed: the tool failed or was refused; not_found: no such tool;
  // rate_limited: too many calls in flight.  None for results that only set isError.
  // failure is invalid_params when the request itself was wrong (a forged requestState, a
  // malformed inputResponses): MCP answers a JSON-RPC error carrying the text.
  std::optional<errc> failure;
  // Set when the call needs the user's input first: the InputRequiredResult's fields
  // (inputRequests, requestState); content is empty then.
  std::optional<json::object> input_required;

  static call_result text(std::string text, bool is_error = false, std::optional<errc> failure = std::nullopt);
  json::object to_json() const;
};

// One entry of tools/list: description already carries the permission prefix.
struct listed_tool {
  std::string name;
  std::string description;
  json::object input_schema;
  std::string plugin;  // plugin name, "browser" or "platform"
};

// Whether an MCP 2026-07-28 client that declared the tasks extension may get a call of the
// tool answered as a task handle: never (forbidden), when the call outlives the endpoint's
// threshold (optional), or only so (required: a client without the extension is refused).
enum class task_support { forbidden, optional, required };

// How an MCP 2026-07-28 endpoint may run a tool's calls; the defaults suit every real tool.
struct call_traits {
  task_support tasks = task_support::optional;
  // A client capability the tool cannot run without (refused with -32021 before the call,
  // when the request does not declare it); empty: none.
  std::string requires_client_capability;
};

class tool_service {
 public:
  virtual ~tool_service() = default;
  // Every tool in tools/list order (spec §6.2): plugin tools, browser tools, platform tools.
  virtual std::vector<listed_tool> list_tools() const = 0;
  // Runs one call through the whole pipeline; never throws for expected failures (they
  // come back as is_error results).
  virtual asio::awaitable<call_result> call_tool(std::string name, json::object arguments, call_options options) = 0;
  virtual call_traits traits_of(std::string_view /*tool*/) const { return {}; }
  // The last session of MCP client `client` (its clientInfo.name) ended: deleted, idle-expired
  // or its stdio bridge gone.  Not called at server shutdown.
  virtual void client_ended(std::string_view /*client*/) {}
};

}  // namespace opentabs::tools
