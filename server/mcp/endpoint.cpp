// An MCP Streamable HTTP endpoint: the dispatch by protocol revision and the one place a
// request's answer is written.  A request goes to one of two rooms - session_endpoint
// (2025-11-25 and earlier: initialize, sessions, POST/GET/DELETE, SSE answers) or
// stateless_endpoint (2026-07-28: POST only, subscriptions/listen) - which share one
// call_runner for tools/call; the 2026-07-28 tasks extension is the task_runner.  Here:
// the HTTP method switch, the headers every POST needs, the body's parse, the choice of
// revision (speaks_modern), and the server events (tools changed, plugin logs, shutdown)
// fanned out to the rooms.  Everything runs on the server's io thread.
//
// Lifetimes: each session is one coroutine (session_registry) that owns its idle deadline and
// ends the session when it passes; POST and GET handlers run in the HTTP connection's
// coroutine and reach the session through a shared_ptr, so a session that ends while a
// request is in flight only makes that request finish early.  The endpoint's state is
// shared with every coroutine it started (sessions, tasks), so destroying the endpoint
// object never leaves a suspended coroutine pointing at freed memory.
#include "mcp/endpoint.hpp"

#include <memory>
#include <optional>

#include "jsonrpc/jsonrpc.hpp"
#include "mcp/call_runner.hpp"
#include "mcp/prompt_requests.hpp"
#include "mcp/protocol_version.hpp"
#include "mcp/request_state.hpp"
#include "mcp/session_endpoint.hpp"
#include "mcp/stateless_endpoint.hpp"
#include "mcp/streamable_http.hpp"
#include "mcp/task_runner.hpp"
#include "mcp/tool_catalog.hpp"
#include "util/env.hpp"
#include "util/strings.hpp"

namespace opentabs::mcp {

using namespace opentabs::jsonrpc;
using net::awaitable;

namespace {

int env_positive(const char* name, int fallback) {
  return static_cast<int>(env_integer(name, 1, 1'000'000'000).value_or(fallback));
}

}  // namespace

endpoint_options endpoint_options_from_env(bool gateway) {
  endpoint_options o;
  o.gateway = gateway;
  o.session_idle_expiry = std::chrono::milliseconds(env_positive("OPENTABS_MCP_SESSION_IDLE_MS", static_cast<int>(o.session_idle_expiry.count())));
  o.max_new_sessions_per_minute = env_positive("OPENTABS_MCP_MAX_NEW_SESSIONS_PER_MINUTE", o.max_new_sessions_per_minute);
  o.sse_keepalive_interval = std::chrono::milliseconds(env_positive("OPENTABS_MCP_SSE_KEEPALIVE_MS", static_cast<int>(o.sse_keepalive_interval.count())));
  o.client_activity_window = std::chrono::milliseconds(env_positive("OPENTABS_MCP_CLIENT_ACTIVE_MS", static_cast<int>(o.client_activity_window.count())));
  o.task_after = std::chrono::milliseconds(env_positive("OPENTABS_MCP_TASK_AFTER_MS", static_cast<int>(o.task_after.count())));
  o.tasks_kept.ttl = std::chrono::milliseconds(env_positive("OPENTABS_MCP_TASK_TTL_MS", static_cast<int>(o.tasks_kept.ttl.count())));
  o.tasks_kept.max_per_client = static_cast<std::size_t>(env_positive("OPENTABS_MCP_TASKS_PER_CLIENT", static_cast<int>(o.tasks_kept.max_per_client)));
  return o;
}

std::shared_ptr<request_state_seal> request_state_seal_from_env() {
  return std::make_shared<request_state_seal>(
      env_milliseconds("OPENTABS_MCP_REQUEST_STATE_TTL_MS", 1, max_env_milliseconds).value_or(request_state_seal::default_ttl));
}

namespace {

struct endpoint_state : std::enable_shared_from_this<endpoint_state> {
  endpoint_state(asio::any_io_executor ex, tools::tool_service& service, tools::server_events& ev, endpoint_options o)
      : events(ev), options(std::move(o)),
        own_group(options.tasks ? std::nullopt : std::make_optional<net::task_group>(ex)),
        background(options.tasks ? *options.tasks : *own_group), catalog(service),
        request_states(options.request_states ? options.request_states : std::make_shared<request_state_seal>()),
        calls(ex, service, catalog, *request_states, options.gateway, {options.sse_head_delay, options.sse_keepalive_interval}),
        tasks(ex, calls, background, options.task_after, options.tasks_kept, options.gateway ? "mcp gateway" : "mcp"),
        prompts(ex, options.gateway ? nullptr : options.prompts,
                [this](const std::shared_ptr<live_session>& s, const std::shared_ptr<stream_sink>& sink, const client_context* modern,
                       std::optional<json::value> responses, std::optional<std::string> state) {
                  return calls.request_options(s, sink, modern, std::move(responses), std::move(state));
                },
                *request_states),
        sessions(ex, service, catalog, calls, background,
                 {options.gateway, options.server_version, options.session_idle_expiry, options.max_new_sessions_per_minute,
                  options.sse_keepalive_interval, options.max_batch_messages, &prompts, options.resources}),
        modern(ex, service, catalog, calls, tasks,
               {options.gateway, options.server_version, options.sse_keepalive_interval, &prompts, options.resources}) {}

  tools::server_events& events;
  endpoint_options options;
  std::optional<net::task_group> own_group;  // when options.tasks is null (unit tests)
  net::task_group& background;  // where sessions' coroutines and tasks' calls run
  tool_catalog catalog;
  std::shared_ptr<request_state_seal> request_states;
  call_runner calls;  // tools/call, for both rooms and for tasks
  task_runner tasks;  // the tasks extension (2026-07-28 clients that declare it)
  prompt_requests prompts;  // prompts/* and completion/complete, for both rooms
  session_endpoint sessions;  // 2025-11-25 and earlier
  stateless_endpoint modern;  // 2026-07-28
  tools::server_events::token tools_token = 0, log_token = 0, resources_token = 0;
  bool shut = false;

  void subscribe() {
    std::weak_ptr<endpoint_state> weak = shared_from_this();
    tools_token = events.on_tools_changed([weak] {
      if (auto self = weak.lock()) self->on_tools_changed();
    });
    log_token = events.on_plugin_log([weak](const tools::plugin_log_entry& e) {
      if (auto self = weak.lock()) self->on_plugin_log(e);
    });
    resources_token = events.on_resources_changed([weak](const tools::resource_change& c) {
      if (auto self = weak.lock()) self->on_resources_changed(c);
    });
  }

  // ---- server events ----------------------------------------------------------------

  void on_tools_changed() {
    catalog.invalidate();
    sessions.announce_tools_changed();
    modern.announce_tools_changed();
    // A reload or a permission change changes the plugins listed and which tabs are.
    tools::resource_change listing;
    listing.list_changed = true;
    on_resources_changed(listing);
  }

  void on_plugin_log(const tools::plugin_log_entry& entry) {
    // Gateway sessions do not receive plugin logs (as in OpenTabs): they asked for a
    // minimal surface.
    if (options.gateway) return;
    sessions.announce_plugin_log(entry);
    calls.forward_plugin_log(entry);
  }

  // Resources that changed (tab events, the listing after a tool-set change): to their
  // subscribers (the gateway offers no resources).
  void on_resources_changed(const tools::resource_change& change) {
    if (options.gateway) return;
    sessions.announce_resources_changed(change);
    modern.announce_resources_changed(change);
  }

  void shutdown() {
    if (shut) return;
    shut = true;
    events.unsubscribe(tools_token);
    events.unsubscribe(log_token);
    events.unsubscribe(resources_token);
    sessions.end_all("server shutting down");
    tasks.shutdown();
    modern.shutdown();
    if (own_group) own_group->close();
  }

  // ---- HTTP entry -------------------------------------------------------------------

  awaitable<void> handle(net::http_exchange& ex) {
    auto self = shared_from_this();
    auto work = answer(ex);
    send(ex, co_await std::move(work));
  }

  // The request's answer, by HTTP method and protocol revision.
  awaitable<request_answer> answer(net::http_exchange& ex) {
    if (shut) co_return answer_with(transport_error(503, "Service Unavailable: the server is shutting down"));
    const auto& method = ex.request().method;
    if (method != "POST" && is_modern_version(trim(ex.request().header(version_header)))) {
      auto res = transport_error(405, "Method Not Allowed: MCP " + std::string(modern_protocol_version) +
                                          " has no GET stream and no sessions; POST every request (subscriptions/listen for change notifications)");
      res.with_header("Allow", "POST");
      co_return answer_with(std::move(res));
    }
    if (method == "POST") {
      auto posted = handle_post(ex);
      co_return co_await std::move(posted);
    }
    if (method == "GET") {
      auto stream = sessions.get(ex);
      co_return co_await std::move(stream);
    }
    if (method == "DELETE") co_return answer_with(sessions.del(ex.request()));
    auto res = transport_error(405, "Method Not Allowed: use POST, GET or DELETE");
    res.with_header("Allow", "GET, POST, DELETE");
    co_return answer_with(std::move(res));
  }

  // ---- POST -------------------------------------------------------------------------

  // The one place a request's answer is written (a streamed answer has gone out already).
  static void send(net::http_exchange& ex, request_answer answer) {
    if (!answer.response) return;
    if (answer.listing) ex.respond(std::move(*answer.response), std::move(answer.listing), std::move(answer.after));
    else ex.respond(std::move(*answer.response));
  }

  // The headers every POST needs (and, before 2026-07-28, a session that still exists).
  std::optional<net::http_response> refuse_post_headers(const codec::http_request& req) {
    // A 2026-07-28 request has no session: an Mcp-Session-Id it still carries is ignored.
    if (!is_modern_version(trim(req.header(version_header))))
      if (auto stale = sessions.stale_session_refusal(req)) return stale;
    if (!accepts(req.header("Accept"), "application/json") || !accepts(req.header("Accept"), "text/event-stream"))
      return transport_error(406, "Not Acceptable: the client must accept both application/json and text/event-stream");
    if (!is_json_content_type(req.header("Content-Type")))
      return transport_error(415, "Unsupported Media Type: Content-Type must be application/json");
    return std::nullopt;
  }

  // The POST's headers and body, then the room of its revision answers it.
  awaitable<request_answer> handle_post(net::http_exchange& ex) {
    const auto& req = ex.request();
    if (auto refused = refuse_post_headers(req)) co_return answer_with(std::move(*refused));
    // The body and what classify() views in it die with this request; everything kept
    // longer (ids, arguments, progress tokens) is copied out into default storage.
    json::arena memory;
    auto body = json::parse(req.body, memory);
    if (!body) co_return answer_with(transport_error(400, rpc_error::parse_error(body.err().message)));
    const bool has_session = !trim(req.header(session_header)).empty();
    if (speaks_modern(req.header(version_header), *body, has_session)) {
      auto answer = modern.post(ex, *body, shared_from_this());
      co_return co_await std::move(answer);
    }
    auto answer = sessions.post(ex, *body, shared_from_this());
    co_return co_await std::move(answer);
  }
};

}  // namespace

struct endpoint::impl {
  std::shared_ptr<endpoint_state> st;
};

endpoint::endpoint(asio::any_io_executor ex, tools::tool_service& service, tools::server_events& events, endpoint_options options)
    : impl_(std::make_unique<impl>()) {
  impl_->st = std::make_shared<endpoint_state>(std::move(ex), service, events, std::move(options));
  impl_->st->subscribe();
}

endpoint::~endpoint() { shutdown(); }

// Not a coroutine (one frame less per request): the state's handle() holds the state
// itself (shared_from_this) from its first step, which runs as soon as the caller awaits.
net::awaitable<void> endpoint::handle(net::http_exchange& ex) { return impl_->st->handle(ex); }

std::size_t endpoint::session_count() const { return impl_->st->sessions.session_count(); }

client_counts endpoint::client_activity() const {
  const auto window = impl_->st->options.client_activity_window;
  auto counts = impl_->st->sessions.counts(window);
  counts.stateless_clients = impl_->st->modern.clients_within(window);
  return counts;
}

void endpoint::shutdown() { impl_->st->shutdown(); }

}  // namespace opentabs::mcp
