// The one way a tools/call runs, whichever way it came in: a 2025-11-25 session's POST, a
// 2026-07-28 stateless POST, or a task (task_runner).  It routes the gateway's meta-tools,
// builds the call's options (cancellation, caller, the client's questions and the asker of its
// permission question, progress),
// registers the call where notifications reach it (its session's calls, or the 2026-07-28
// calls that asked for plugin logs), keeps its SSE stream alive while the pipeline runs,
// and turns the pipeline's result into the JSON-RPC response.  Runs on the io thread.
#pragma once

#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "jsonrpc/jsonrpc.hpp"
#include "mcp/live_session.hpp"
#include "mcp/log_level.hpp"
#include "mcp/modern_request.hpp"
#include "mcp/request_state.hpp"
#include "mcp/sse_stream.hpp"
#include "mcp/tool_catalog.hpp"
#include "net/asio.hpp"
#include "tools/events.hpp"
#include "tools/tool_service.hpp"
#include "util/log.hpp"

namespace opentabs::mcp {

struct tools_call_request;

// What a call run by a task (task_runner) brings: its in-flight record is the task's (so
// tasks/cancel reaches it), and its questions become the task's inputRequests.
struct task_call {
  std::shared_ptr<in_flight_call> call;
  std::function<bool(json::object, tools::call_options::answer_fn)> elicit;
};

class call_runner {
 public:
  struct stream_timing {
    std::chrono::milliseconds head_delay;          // endpoint_options::sse_head_delay
    std::chrono::milliseconds keepalive_interval;  // endpoint_options::sse_keepalive_interval
  };
  // `request_states` seals the permission questions a 2026-07-28 call's client retries.
  call_runner(asio::any_io_executor ex, tools::tool_service& service, tool_catalog& catalog, request_state_seal& request_states,
              bool gateway, stream_timing timing);

  // Runs one tools/call to its response; nullopt when it was cancelled (no response is sent
  // then).  A 2025 call (`s` set) is registered in its session for notifications/cancelled;
  // a 2026-07-28 call (`modern` set, no session) is cancelled by closing its stream and
  // gets plugin logs only when its _meta asked for a log level.  `sink`: the SSE stream the
  // call answers on (null when it answers in one response or as a task).
  net::awaitable<std::optional<std::string>> call(std::shared_ptr<live_session> s, const jsonrpc::message& m,
                                                  std::shared_ptr<stream_sink> sink, const client_context* modern,
                                                  const task_call* task = nullptr);

  // The options of a request other than tools/call that may ask the client while it is
  // answered (prompts/get): its caller, and where its questions go, as for a call.  It has
  // no progress and is not registered for notifications/cancelled.
  tools::call_options request_options(const std::shared_ptr<live_session>& s, const std::shared_ptr<stream_sink>& sink,
                                      const client_context* modern, std::optional<json::value> input_responses,
                                      std::optional<std::string> request_state);

  // A plugin log line, sent to the 2026-07-28 calls in flight that asked for its level.
  void forward_plugin_log(const tools::plugin_log_entry& entry);

  // Awaits one request's answer; the one place where an exception from any request becomes
  // a JSON-RPC internal error: every request ends with a result or an error, whatever threw.
  // `start` makes the request's awaitable, inside the guard: a handler may throw before it
  // first suspends.
  template <class Start>
  net::awaitable<std::optional<std::string>> guarded(const jsonrpc::message& m, Start start) {
    std::string failure;
    try {
      auto work = start();
      co_return co_await std::move(work);
    } catch (const std::exception& e) {
      failure = e.what();
    } catch (...) {
      failure = "an exception of unknown type";
    }
    log::error(std::string(name()) + ": " + m.method.substr(0, 64) + " failed unexpectedly: " + failure);
    co_return jsonrpc::error_json(m.id, jsonrpc::rpc_error::internal("the request failed unexpectedly; see the server log"));
  }

 private:
  std::string_view name() const { return gateway_ ? "mcp gateway" : "mcp"; }
  tools::call_options call_options_for(const std::shared_ptr<live_session>& s, const std::shared_ptr<stream_sink>& sink,
                                       const client_context* modern, const task_call* task, tools_call_request& req,
                                       const std::shared_ptr<in_flight_call>& c);
  std::optional<std::string> route_through_gateway(const jsonrpc::message& m, const client_context* modern, std::string& tool,
                                                   json::object& arguments);
  net::awaitable<tools::call_result> await_registered_call(live_session* s, const std::string& key, std::shared_ptr<in_flight_call> c,
                                                           std::shared_ptr<stream_sink> sink, const client_context* modern,
                                                           std::string tool, json::object arguments, tools::call_options opts);

  tools::tool_service& service_;
  tool_catalog& catalog_;
  request_state_seal& request_states_;
  bool gateway_;
  stream_timing timing_;
  // The calls' stream keepers (head delay, keep-alives).  The timer stays armed between
  // calls: the server ends with io_context::stop().
  net::deadline_set call_deadlines_;
  // 2026-07-28 tools/calls in flight whose request asked for logs (_meta logLevel).
  std::unordered_map<in_flight_call*, log_level> logged_calls_;
};

}  // namespace opentabs::mcp
