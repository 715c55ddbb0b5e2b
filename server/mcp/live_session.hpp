// One MCP session while it lives on the endpoint: its protocol record (session_table), the
// idle timer its coroutine sleeps on, its standalone GET stream and the tools/calls in
// flight — and the rules that need no I/O: where an unsolicited message goes, what
// notifications/cancelled cancels, how progress is forwarded.  The endpoint owns the
// sessions and runs their coroutines; the HTTP handlers reach a session through a
// shared_ptr, so a session that ends while a request is in flight only makes that request
// finish early.
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "json/json.hpp"
#include "jsonrpc/jsonrpc.hpp"
#include "mcp/resource_requests.hpp"
#include "mcp/session_table.hpp"
#include "mcp/sse_stream.hpp"
#include "net/asio.hpp"
#include "net/event.hpp"
#include "tools/tool_service.hpp"

namespace opentabs::mcp {

// One tools/call in flight: what notifications/cancelled needs and where its progress and
// plugin logs go.
struct in_flight_call {
  std::shared_ptr<tools::cancel_source> cancel = std::make_shared<tools::cancel_source>();
  std::shared_ptr<stream_sink> sink;
  std::string plugin;          // owner of the called tool, for routing plugin logs
  json::value progress_token;  // null: the caller asked for no progress
  std::optional<double> last_progress;
  bool cancelled = false;

  void cancel_now() {
    cancelled = true;
    cancel->cancel();
  }
  // Sends notifications/progress on the call's stream; progress must strictly increase
  // (MCP), so a report that does not is dropped.
  void forward_progress(const tools::progress_update& u);
};

struct live_session {
  live_session(asio::any_io_executor ex, std::shared_ptr<session_record> r)
      : rec(std::move(r)), id(rec->id), life_changed(std::move(ex)) {}

  std::shared_ptr<session_record> rec;
  std::string id;
  net::event life_changed;  // wakes the session coroutine before its idle deadline (end())
  std::shared_ptr<stream_sink> standalone;
  std::unordered_map<std::string, std::shared_ptr<in_flight_call>> calls;  // by jsonrpc::id_key
  bool list_changed_pending = false;  // a list_changed that found no open stream
  // elicitation/create requests sent to the client and not answered yet, by jsonrpc::id_key.
  std::unordered_map<std::string, tools::call_options::answer_fn> awaiting_answers;
  static constexpr std::size_t max_awaiting_answers = 64;
  // Requests withdrawn before the client answered, whose answer may still come (a client
  // that keeps its dialog open): the answer is still handed over, so the client is told it
  // was not used.  The newest max_withdrawn_answers are kept.
  std::unordered_map<std::string, tools::call_options::answer_fn> withdrawn_answers;
  std::deque<std::string> withdrawn_order;
  static constexpr std::size_t max_withdrawn_answers = 64;
  resource_subscriptions subscribed_resources;  // resources/subscribe, bounded
  bool ended = false;

  // A message not answering anything: on the stream of a call to `plugin`'s tools when
  // there is one (logs of a running call belong with it), else the standalone stream,
  // else any open call stream.  False when the session has no open stream.
  bool deliver_unsolicited(const std::string& note, std::string_view plugin);
  // notifications/initialized and notifications/cancelled take effect; others need nothing.
  void handle_notification(const jsonrpc::message& m);
  // Sends `method` with `params` as a request to the client on `stream`; the client's
  // response goes to `answer`.  Its request id, or nullopt when the stream is closed or too
  // many are waiting.
  std::optional<std::string> ask_client(stream_sink& stream, std::string_view method, json::object params,
                                        tools::call_options::answer_fn answer);
  // Tells the client that the request `id` it has not answered needs no answer any more
  // (notifications/cancelled with `reason`, on `stream`); an answer it sends anyway still
  // reaches the answer function (withdrawn_answers).
  void withdraw_request(stream_sink& stream, const std::string& id, std::string_view reason);
  // A client's response (`response` is the whole message): its result to whoever asked.
  // What the client is to be told when its answer was not used, else "".
  std::string handle_response(const jsonrpc::message& m, const json::value& response);
  // Marks the session ended: wakes its coroutine, ends its standalone stream and cancels
  // every call in flight.  Idempotent; the endpoint then forgets the session.
  void end();
};

// Counts a request or stream as activity that keeps the session from expiring.
struct busy_guard {
  std::shared_ptr<session_record> rec;
  session_table* table;
  busy_guard(std::shared_ptr<session_record> r, session_table& t) : rec(std::move(r)), table(&t) { ++rec->busy; }
  ~busy_guard() {
    --rec->busy;
    table->touch(*rec);
  }
  busy_guard(const busy_guard&) = delete;
  busy_guard& operator=(const busy_guard&) = delete;
};

}  // namespace opentabs::mcp
