// The coroutine glue of an MCP Streamable HTTP endpoint: HTTP entry (POST, GET, DELETE),
// initialize, and the awaiting of requests and tools/calls.  The named pieces: jsonrpc
// (classification), request_methods (the method table), session_registry (the live
// sessions and their coroutines), live_session (a session's streams, calls and
// notifications), sse_stream (response streams and their keep-alives), gateway_routing
// (the gateway's meta-tools), and the sans-I/O rules of protocol_version, session_table,
// requests, streamable_http, tool_catalog and server_info.  Everything runs on the
// server's io thread.
//
// Lifetimes: each session is one coroutine (session_registry) that owns its idle deadline and
// ends the session when it passes; POST and GET handlers run in the HTTP connection's
// coroutine and reach the session through a shared_ptr, so a session that ends while a
// request is in flight only makes that request finish early.  The endpoint's state is
// shared with every coroutine it started, so destroying the endpoint object never leaves a
// suspended coroutine pointing at freed memory.
#include "mcp/endpoint.hpp"

#include <cstdlib>
#include <exception>
#include <functional>
#include <optional>
#include <variant>

#include "codec/gzip.hpp"
#include "jsonrpc/jsonrpc.hpp"
#include "mcp/call_runner.hpp"
#include "mcp/gateway_tools.hpp"
#include "mcp/live_session.hpp"
#include "mcp/modern_request.hpp"
#include "mcp/protocol_version.hpp"
#include "mcp/request_methods.hpp"
#include "mcp/requests.hpp"
#include "mcp/server_info.hpp"
#include "mcp/session_registry.hpp"
#include "mcp/sse_stream.hpp"
#include "mcp/streamable_http.hpp"
#include "mcp/stateless_endpoint.hpp"
#include "mcp/task_runner.hpp"
#include "util/peer_proof.hpp"
#include "mcp/tool_catalog.hpp"
#include "net/event.hpp"
#include "util/clock.hpp"
#include "util/env.hpp"
#include "util/log.hpp"
#include "util/strings.hpp"

namespace opentabs::mcp {

using namespace opentabs::jsonrpc;

using namespace asio::experimental::awaitable_operators;
using net::awaitable;
using net::as_value;

namespace {

std::string short_id(std::string_view id) { return std::string(id.substr(0, 8)); }

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

namespace {

struct endpoint_state : std::enable_shared_from_this<endpoint_state> {
  endpoint_state(asio::any_io_executor e, tools::tool_service& s, tools::server_events& ev, endpoint_options o)
      : exec(std::move(e)), service(s), events(ev), options(std::move(o)),
        sessions(exec, options.tasks, options.session_idle_expiry, options.max_new_sessions_per_minute,
                 options.gateway ? "mcp gateway" : "mcp", &s),
        table(sessions.table()), catalog(s),
        calls(exec, s, catalog, options.gateway, {options.sse_head_delay, options.sse_keepalive_interval}),
        methods(make_request_methods(options.gateway, catalog, [this](request_context ctx) { return calls.call(std::move(ctx.session), ctx.msg, std::move(ctx.sink), nullptr); })),
        tasks(exec, calls, options.tasks, options.task_after, options.tasks_kept, std::string(name())),
        modern(exec, s, catalog, calls, tasks, {options.gateway, options.server_version, options.sse_keepalive_interval}) {}

  asio::any_io_executor exec;
  tools::tool_service& service;
  tools::server_events& events;
  endpoint_options options;
  session_registry sessions;
  session_table& table;
  tool_catalog catalog;
  call_runner calls;
  request_methods methods;
  tools::server_events::token tools_token = 0, log_token = 0;
  bool shut = false;

  // The tasks extension (2026-07-28 clients that declare it).
  task_runner tasks;
  // MCP 2026-07-28: no sessions, subscriptions/listen.
  stateless_endpoint modern;

  std::string_view name() const { return options.gateway ? "mcp gateway" : "mcp"; }

  void subscribe() {
    std::weak_ptr<endpoint_state> weak = shared_from_this();
    tools_token = events.on_tools_changed([weak] {
      if (auto self = weak.lock()) self->on_tools_changed();
    });
    log_token = events.on_plugin_log([weak](const tools::plugin_log_entry& e) {
      if (auto self = weak.lock()) self->on_plugin_log(e);
    });
  }

  // ---- server events ----------------------------------------------------------------

  void on_tools_changed() {
    catalog.invalidate();
    sessions.announce_tools_changed();
    modern.announce_tools_changed();
  }

  void on_plugin_log(const tools::plugin_log_entry& entry) {
    // Gateway sessions do not receive plugin logs (as in OpenTabs): they asked for a
    // minimal surface.
    if (options.gateway) return;
    sessions.announce_plugin_log(entry);
    calls.forward_plugin_log(entry);
  }

  void shutdown() {
    if (shut) return;
    shut = true;
    events.unsubscribe(tools_token);
    events.unsubscribe(log_token);
    sessions.end_all("server shutting down");
    tasks.shutdown();
    modern.shutdown();
  }

  // ---- HTTP entry -------------------------------------------------------------------

  awaitable<void> handle(net::http_exchange& ex) {
    auto self = shared_from_this();
    if (shut) {
      ex.respond(transport_error(503, "Service Unavailable: the server is shutting down"));
      co_return;
    }
    const auto& method = ex.request().method;
    if (method != "POST" && is_modern_version(trim(ex.request().header(version_header)))) {
      auto res = transport_error(405, "Method Not Allowed: MCP " + std::string(modern_protocol_version) +
                                          " has no GET stream and no sessions; POST every request (subscriptions/listen for change notifications)");
      res.with_header("Allow", "POST");
      ex.respond(std::move(res));
      co_return;
    }
    if (method == "POST") {
      send(ex, co_await handle_post(ex));
    } else if (method == "GET") {
      co_await handle_get(ex);
    } else if (method == "DELETE") {
      handle_delete(ex);
    } else {
      auto res = transport_error(405, "Method Not Allowed: use POST, GET or DELETE");
      res.with_header("Allow", "GET, POST, DELETE");
      ex.respond(std::move(res));
    }
  }

  // The session a GET/DELETE/POST names, or the response refusing the request.
  std::variant<std::shared_ptr<live_session>, net::http_response> find_session(const codec::http_request& req) {
    auto sid = trim(req.header(session_header));
    if (sid.empty())
      return transport_error(400, rpc_error::invalid_request("Bad Request: Mcp-Session-Id header is required (send initialize first to start a session)"));
    auto s = sessions.find(sid);
    if (!s)
      return transport_error(404, rpc_error{rpc_code::session_not_found, "Session not found: it expired or was deleted; start a new session with initialize", nullptr});
    auto version = effective_version(req.header(version_header), s->rec->protocol_version);
    if (!version) return transport_error(400, version.err().message);
    return s;
  }

  // The session a GET/DELETE names, or null with the refusal already sent.
  std::shared_ptr<live_session> session_for(net::http_exchange& ex) {
    auto found = find_session(ex.request());
    if (auto* refusal = std::get_if<net::http_response>(&found)) {
      ex.respond(std::move(*refusal));
      return nullptr;
    }
    return std::get<std::shared_ptr<live_session>>(std::move(found));
  }

  // A request naming a session that is gone gets 404 before its Accept header is judged:
  // the client's next step is a new initialize, not a new header.
  std::optional<net::http_response> stale_session_refusal(const codec::http_request& req) {
    auto sid = trim(req.header(session_header));
    if (sid.empty() || sessions.find(sid)) return std::nullopt;
    return std::get<net::http_response>(find_session(req));
  }

  bool answered_stale_session(net::http_exchange& ex) {
    auto refusal = stale_session_refusal(ex.request());
    if (refusal) ex.respond(std::move(*refusal));
    return refusal.has_value();
  }

  void handle_delete(net::http_exchange& ex) {
    auto s = session_for(ex);
    if (!s) return;
    sessions.end(s, "deleted by the client");
    ex.respond(net::http_response::empty(200));
  }

  awaitable<void> handle_get(net::http_exchange& ex) {
    if (answered_stale_session(ex)) co_return;
    if (!accepts(ex.request().header("Accept"), "text/event-stream")) {
      ex.respond(transport_error(406, "Not Acceptable: the standalone stream needs Accept: text/event-stream"));
      co_return;
    }
    auto s = session_for(ex);
    if (!s) co_return;
    // One standalone stream per session: a new GET takes over from an older one (which
    // may belong to a connection that died unnoticed; see hold_standalone_stream).
    if (auto old = s->standalone) old->end_soon();
    ex.start_stream(200, sse_headers());
    auto sink = std::make_shared<stream_sink>();
    sink->ex = &ex;
    sink->wake = std::make_unique<net::event>(exec);
    sink_guard guard{sink};
    s->standalone = sink;
    busy_guard busy(s->rec, table);
    if (s->list_changed_pending) {
      s->list_changed_pending = false;
      sink->send(notification_json("notifications/tools/list_changed"));
    }
    // Built before the co_await, not as its temporaries (GCC 12 destroys some of those
    // twice; a std::function holding the session would drop it too often).
    std::function<bool()> session_ended = [s] { return s->ended; };
    auto hold = hold_standalone_stream(sink, options.sse_keepalive_interval, std::move(session_ended));
    co_await std::move(hold);
    if (s->standalone == sink) s->standalone.reset();
    ex.end_stream();
  }

  // ---- POST -------------------------------------------------------------------------

  static void send(net::http_exchange& ex, post_answer answer) {
    if (!answer.response) return;
    if (answer.listing) ex.respond(std::move(*answer.response), std::move(answer.listing), std::move(answer.after));
    else ex.respond(std::move(*answer.response));
  }

  // The headers every POST needs (and, before 2026-07-28, a session that still exists).
  std::optional<net::http_response> refuse_post_headers(const codec::http_request& req) {
    // A 2026-07-28 request has no session: an Mcp-Session-Id it still carries is ignored.
    if (!is_modern_version(trim(req.header(version_header))))
      if (auto stale = stale_session_refusal(req)) return stale;
    if (!accepts(req.header("Accept"), "application/json") || !accepts(req.header("Accept"), "text/event-stream"))
      return transport_error(406, "Not Acceptable: the client must accept both application/json and text/event-stream");
    if (!is_json_content_type(req.header("Content-Type")))
      return transport_error(415, "Unsupported Media Type: Content-Type must be application/json");
    return std::nullopt;
  }

  awaitable<post_answer> handle_post(net::http_exchange& ex) {
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
    if (!has_session) co_return answer_with(answer_without_session(*body));
    auto found = find_session(req);
    if (auto* refusal = std::get_if<net::http_response>(&found)) co_return answer_with(std::move(*refusal));
    auto s = std::get<std::shared_ptr<live_session>>(std::move(found));
    table.touch(*s->rec);
    auto posted = read_post_messages(*body, s->rec->protocol_version, options.max_batch_messages);
    if (posted.refusal) co_return answer_with(std::move(*posted.refusal));
    co_return co_await post_in_session(ex, s, *body, posted);
  }

  // The messages of one POST to a session: notifications and client responses take effect
  // at once; requests are answered — in one JSON response, or over SSE when a tools/call
  // is among them (it may report progress and ask questions before its result).
  awaitable<post_answer> post_in_session(net::http_exchange& ex, const std::shared_ptr<live_session>& s,
                                         const json::value& body, const post_messages& posted) {
    const auto& items = posted.items;
    bool any_request = false, stream = false;
    std::string not_used;  // an answer of the client's that came too late, and why
    for (std::size_t i = 0; i < items.size(); ++i) {
      const auto& it = items[i];
      if (!it) {
        any_request = true;
        continue;
      }
      if (it.msg->kind == message_kind::notification) s->handle_notification(*it.msg);
      if (it.msg->kind == message_kind::response)
        if (auto notice = s->handle_response(*it.msg, posted.batch ? body.get_array()[i] : body); !notice.empty()) not_used = std::move(notice);
      if (it.msg->kind != message_kind::request) continue;
      any_request = true;
      if (it.msg->method == "tools/call") stream = true;
    }
    // An answer to a question decided elsewhere first changed nothing: the client is told so
    // (409 with a JSON-RPC error without id, as Streamable HTTP allows for input it cannot
    // take) instead of a 202 that reads as "done".
    if (!any_request && !not_used.empty()) co_return answer_with(transport_error(409, "Conflict: " + not_used));
    if (!any_request) co_return answer_with(net::http_response::empty(202));
    if (!stream && !posted.batch && items.size() == 1 && items[0] && answers_from_cached_listing(options.gateway, *items[0].msg)) {
      busy_guard busy(s->rec, table);
      co_return cached_listing_answer(ex.request(), items[0].msg->id);
    }
    if (!stream) co_return co_await answer_in_one_response(s, posted);
    co_await answer_in_stream(ex, s, posted);
    co_return already_answered();
  }

  // tools/list alone: to a client that takes gzip, the catalog's listing compressed once
  // per generation (megabytes of JSON are tens of KiB); to others, the cached listing
  // itself, queued behind the response's head instead of copied into each response.
  post_answer cached_listing_answer(const codec::http_request& req, const json::value& id) {
    std::optional<std::string> gz;
    if (codec::accepts_gzip(req.header("Accept-Encoding"))) {
      try {
        gz = catalog.tools_list_gzip(id);
      } catch (const std::exception& e) {
        log::error(std::string(name()) + ": compressing tools/list failed (" + e.what() + "); answering uncompressed");
      }
    }
    if (gz) return answer_with(gzip_json_response(200, std::move(*gz)));
    auto split = catalog.tools_list_response(id);
    return post_answer{json_response(200, std::move(split.before)), std::move(split.listing), std::move(split.after)};
  }

  awaitable<post_answer> answer_in_one_response(const std::shared_ptr<live_session>& s, const post_messages& posted) {
    std::vector<std::string> responses;
    for (const auto& it : posted.items) {
      if (!it) {
        responses.push_back(error_json(it.id, it.error));
      } else if (it.msg->kind == message_kind::request) {
        auto r = co_await run_request(s, *it.msg, nullptr);
        if (r) responses.push_back(std::move(*r));
      }
    }
    if (responses.empty()) co_return answer_with(net::http_response::empty(202));
    co_return answer_with(json_response(200, posted.batch ? batch_json(responses) : std::move(responses[0])));
  }

  awaitable<void> answer_in_stream(net::http_exchange& ex, const std::shared_ptr<live_session>& s, const post_messages& posted) {
    // The head waits for the first event (or the keeper's head delay): most calls are
    // answered in one write.
    ex.start_stream_deferred(200, sse_headers());
    auto sink = std::make_shared<stream_sink>();
    sink->ex = &ex;
    sink_guard guard{sink};
    for (const auto& it : posted.items) {
      if (!it) {
        sink->send(error_json(it.id, it.error));
      } else if (it.msg->kind == message_kind::request) {
        auto r = co_await run_request(s, *it.msg, sink);
        if (r) sink->send(*r);
      }
    }
    ex.end_stream();
  }

  // A POST without Mcp-Session-Id that is not a 2026-07-28 request: initialize starts a
  // session; anything else is a 400 telling the client to initialize first.
  net::http_response answer_without_session(const json::value& body) {
    const auto not_initialize = [] {
      return transport_error(400, rpc_error::invalid_request("Bad Request: no Mcp-Session-Id header and not an initialize request "
                                                             "(send initialize first to start a session)"));
    };
    if (body.is_array()) {
      for (const auto& v : body.get_array())
        if (v.is_object())
          if (const auto* m = json::get_string(v.get_object(), "method"); m && *m == "initialize")
            return transport_error(400, rpc_error::invalid_request("initialize must not be sent in a batch"));
      return transport_error(400, rpc_error::invalid_request("Bad Request: no Mcp-Session-Id header and not an initialize request"));
    }
    auto c = classify(body);
    if (!c) return json_response(400, error_json(c.id, c.error));
    const auto& m = *c.msg;
    if (m.kind != message_kind::request || m.method != "initialize") return not_initialize();
    auto init = parse_initialize(m.params());
    if (!init) return json_response(400, error_json(m.id, init.error));
    if (!table.admit_new_session()) {
      auto retry = table.retry_after_seconds();
      auto res = transport_error(429, "Too Many Requests: at most " + std::to_string(options.max_new_sessions_per_minute) +
                                          " new MCP sessions per minute; retry in " + std::to_string(retry) + " s");
      res.with_header("Retry-After", std::to_string(retry));
      log::warn(std::string(name()) + ": new session refused (rate limit)");
      return res;
    }
    auto version = negotiate_version(init.value->protocol_version);
    auto live = sessions.start(version, shared_from_this());
    live->rec->client_elicits_form = init.value->can_elicit_form;
    live->rec->client_name = init.value->client_name.substr(0, 64);
    auto result = initialize_result(options.gateway, version, options.server_version);
    auto res = json_response(200, response_json(m.id, result));
    res.with_header(std::string(session_header), live->id);
    log::info(std::string(name()) + " session " + short_id(live->id) + " started by \"" + init.value->client_name.substr(0, 64) +
              "\" (protocol " + version + ")");
    return res;
  }

  // ---- requests ---------------------------------------------------------------------

  // Answers one request of a session through the method table.
  awaitable<std::optional<std::string>> run_request(std::shared_ptr<live_session> s, const message& m, std::shared_ptr<stream_sink> sink) {
    busy_guard busy(s->rec, table);
    const auto* method = methods.find(m.method, true);
    if (!method) co_return error_json(m.id, rpc_error::method_not_found(m.method));
    // Named, not temporaries inside the co_await: GCC 12 destroys some temporaries of a
    // co_await expression twice, which would drop a reference to the session too many.
    request_context ctx{std::move(s), m, std::move(sink)};
    auto answer = calls.guarded(m, [&] { return method->handler(std::move(ctx)); });
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

std::size_t endpoint::session_count() const { return impl_->st->sessions.size(); }

client_counts endpoint::client_activity() const {
  const auto window = impl_->st->options.client_activity_window;
  auto counts = impl_->st->table.counts(window);
  counts.stateless_clients = impl_->st->modern.clients_within(window);
  return counts;
}

void endpoint::shutdown() { impl_->st->shutdown(); }

}  // namespace opentabs::mcp
