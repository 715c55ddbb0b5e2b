// An MCP Streamable HTTP endpoint (/mcp, or /mcp/gateway with gateway=true): sessions,
// JSON-RPC handling, SSE responses and the standalone GET stream.  The app's router has
// already checked Host, Origin and the bearer token before calling handle().
//
// Behaviour in brief (details in session_endpoint, stateless_endpoint, task_runner and
// call_runner, and spec/mcp.md §2–3):
// - POST initialize without Mcp-Session-Id creates a session (its own coroutine with an
//   idle deadline), at most max_new_sessions_per_minute (429 + Retry-After beyond).
// - Requests are answered as JSON, except POSTs containing tools/call, which stream SSE
//   (progress, call-related plugin logs, then the result); notification-only POSTs → 202.
// - GET opens the session's standalone stream (list_changed, plugin logs); a newer GET
//   takes over from an older one.  DELETE ends the session; unknown/expired/deleted → 404.
// - notifications/cancelled cancels the call through call_options::cancel and the call's
//   stream then ends without a response.
// - MCP 2026-07-28 beside those, chosen per request (modern_request): no session, _meta and
//   headers checked on every POST, server/discover, cacheable tools/list, tools/call with
//   resultType (cancelled by closing its stream; plugin logs only at a _meta log level),
//   subscriptions/listen for tools/list_changed; GET/DELETE from such a client are 405.
// - The tasks extension for 2026-07-28 clients that declare it: a tools/call still running
//   after task_after becomes a task (task_store) polled with tasks/get, answered with
//   tasks/update (the call's questions) and stopped with tasks/cancel.
// - The gateway offers only opentabs_list_tools / opentabs_call, has no logging
//   capability and gets no plugin-log broadcasts (as in OpenTabs).
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "mcp/client_activity.hpp"
#include "mcp/prompt_service.hpp"
#include "mcp/task_store.hpp"
#include "net/asio.hpp"
#include "net/http_exchange.hpp"
#include "net/task_group.hpp"
#include "tools/events.hpp"
#include "tools/resource_service.hpp"
#include "tools/tool_service.hpp"

namespace opentabs::mcp {

class request_state_seal;  // mcp/request_state.hpp

struct endpoint_options {
  bool gateway = false;                               // only opentabs_list_tools / opentabs_call
  std::string server_version = OPENTABS_VERSION;
  std::chrono::milliseconds session_idle_expiry{std::chrono::minutes(30)};
  int max_new_sessions_per_minute = 5;                // 429 + Retry-After beyond
  // SSE comment sent on quiet streams (standalone GET, long tools/call) so a gone peer is
  // noticed by a failing write and idle proxies keep the stream open.
  std::chrono::milliseconds sse_keepalive_interval{std::chrono::seconds(15)};
  // A tools/call answered as SSE sends its head with its first event, or after this long
  // when the call is still running (so the client sees the stream open).
  std::chrono::milliseconds sse_head_delay{std::chrono::milliseconds(250)};
  // A client is in use when it sent a request (or holds a stream open) within this long.
  std::chrono::milliseconds client_activity_window{std::chrono::minutes(1)};
  std::size_t max_batch_messages = 100;               // 2025-03-26 batches; 400 beyond
  // 2026-07-28 clients that declare the tasks extension: a tools/call still running after
  // this long is answered as a task handle (CreateTaskResult), and the tasks' bounds.
  std::chrono::milliseconds task_after{std::chrono::seconds(3)};
  task_limits tasks_kept;
  // The server's background group: each session's coroutine runs in it, so shutdown waits
  // for them, and so does each task's call.  Null (unit tests): the endpoint's own group,
  // closed at shutdown (nothing is spawned detached).
  net::task_group* tasks = nullptr;
  // Seals the requestState of the 2026-07-28 permission questions; one per server, shared by
  // its endpoints.  Null (unit tests): the endpoint's own, honoured for the default time.
  std::shared_ptr<request_state_seal> request_states;
  // The prompts /mcp offers (prompts/list, prompts/get, completion/complete); null: none,
  // and the gateway never offers any.
  prompt_service* prompts = nullptr;
  // What /mcp offers as resources (the gateway offers none); null: an empty listing.
  tools::resource_service* resources = nullptr;
};

// Production defaults, overridden by test knobs in the environment:
// OPENTABS_MCP_SESSION_IDLE_MS, OPENTABS_MCP_MAX_NEW_SESSIONS_PER_MINUTE,
// OPENTABS_MCP_SSE_KEEPALIVE_MS, OPENTABS_MCP_CLIENT_ACTIVE_MS, OPENTABS_MCP_TASK_AFTER_MS,
// OPENTABS_MCP_TASK_TTL_MS, OPENTABS_MCP_TASKS_PER_CLIENT (each a positive integer; others are ignored).
endpoint_options endpoint_options_from_env(bool gateway);
// The server's one requestState seal, honouring a state for OPENTABS_MCP_REQUEST_STATE_TTL_MS
// (a test knob; 10 minutes by default).
std::shared_ptr<request_state_seal> request_state_seal_from_env();

class endpoint {
 public:
  endpoint(asio::any_io_executor ex, tools::tool_service& service, tools::server_events& events,
           endpoint_options options);
  ~endpoint();

  // Serves one HTTP request for the endpoint's path (POST, GET, DELETE; others 405).
  net::awaitable<void> handle(net::http_exchange& ex);
  std::size_t session_count() const;
  // Clients using the endpoint now, and sessions kept but idle (see client_activity).
  client_counts client_activity() const;
  // Ends every session and open stream (server shutdown).
  void shutdown();

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace opentabs::mcp
