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
#include "mcp/gateway_routing.hpp"
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
#include "mcp/task_store.hpp"
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

// A 2026-07-28 tools/call that may become a task: it runs detached from its POST (which
// waits up to task_after for it), owns its request, and holds the answers its pending
// input requests are waiting for.
struct task_run {
  explicit task_run(asio::any_io_executor ex) : finished_changed(std::move(ex)) {}
  std::string id;  // its task_store record
  json::value body;  // the request, owned: the call outlives the POST's arena
  std::optional<message> msg;  // views `body`
  client_context client;
  std::shared_ptr<in_flight_call> call = std::make_shared<in_flight_call>();
  std::map<std::string, tools::call_options::answer_fn, std::less<>> answers;  // by input request key
  bool finished = false;
  std::optional<std::string> response;  // the call's answer, while it is not a task
  net::event finished_changed;  // the POST waits on it, up to task_after
};

struct endpoint_state : std::enable_shared_from_this<endpoint_state> {
  endpoint_state(asio::any_io_executor e, tools::tool_service& s, tools::server_events& ev, endpoint_options o)
      : exec(std::move(e)), service(s), events(ev), options(std::move(o)),
        sessions(exec, options.tasks, options.session_idle_expiry, options.max_new_sessions_per_minute,
                 options.gateway ? "mcp gateway" : "mcp", &s),
        table(sessions.table()), catalog(s),
        methods(make_request_methods(options.gateway, catalog, [this](request_context ctx) { return call(std::move(ctx.session), ctx.msg, std::move(ctx.sink), nullptr); })),
        task_records(options.tasks_kept) {}

  asio::any_io_executor exec;
  tools::tool_service& service;
  tools::server_events& events;
  endpoint_options options;
  session_registry sessions;
  session_table& table;
  tool_catalog catalog;
  request_methods methods;
  // The calls' stream keepers (head delay, keep-alives).  The timer stays armed between
  // calls: the server ends with io_context::stop().
  net::deadline_set call_deadlines{exec, net::deadline_set::when_empty::keep_timer};
  tools::server_events::token tools_token = 0, log_token = 0;
  bool shut = false;

  // 2026-07-28 subscriptions/listen streams open now.
  struct listener {
    std::shared_ptr<stream_sink> sink;
    json::value subscription_id;  // the listen request's id
    bool tools_list_changed = false;
    std::string client;  // client_context::identity() of the listen request
  };
  // Listen streams hold a connection each for as long as they are open: bounded per client
  // and in all, so one client cannot take the connection slots /health, other MCP clients
  // and the extension need.
  static constexpr std::size_t max_listeners_per_client = 4;
  static constexpr std::size_t max_listeners = 32;
  std::vector<std::shared_ptr<listener>> listeners;
  // 2026-07-28 tools/calls in flight whose request asked for logs (_meta logLevel).
  std::unordered_map<in_flight_call*, log_level> logged_calls;
  // 2026-07-28 clients heard from lately (they have no session to count).
  recent_clients stateless_clients;
  // The tasks extension: the records, and the calls behind the ones still running.
  task_store task_records;
  std::map<std::string, std::shared_ptr<task_run>, std::less<>> task_runs;

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
    for (const auto& l : listeners)
      if (l->tools_list_changed) l->sink->send(listen_notification("notifications/tools/list_changed", l->subscription_id, json::object{}));
  }

  void on_plugin_log(const tools::plugin_log_entry& entry) {
    // Gateway sessions do not receive plugin logs (as in OpenTabs): they asked for a
    // minimal surface.
    if (options.gateway) return;
    sessions.announce_plugin_log(entry);
    std::string note;
    for (const auto& [call, min] : logged_calls) {
      if (call->plugin != entry.plugin || plugin_log_level(entry.level) < min || !call->sink) continue;
      if (note.empty()) note = notification_json("notifications/message", plugin_log_params(entry));
      call->sink->send(note);
    }
  }

  void shutdown() {
    if (shut) return;
    shut = true;
    events.unsubscribe(tools_token);
    events.unsubscribe(log_token);
    sessions.end_all("server shutting down");
    for (const auto& [id, run] : task_runs) run->call->cancel_now();
    for (const auto& l : listeners) l->sink->end_soon();
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

  // What a POST is answered with: one response (for tools/list, the shared listing queued
  // behind its head), or nothing more to send when the answer went out as it was produced
  // (a tools/call stream, a 2026-07-28 request).
  struct post_answer {
    std::optional<net::http_response> response;
    std::shared_ptr<const std::string> listing;
    std::string after;
  };
  static post_answer answer_with(net::http_response r) { return post_answer{std::move(r), nullptr, {}}; }
  static post_answer already_answered() { return post_answer{}; }

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
      co_await modern_post(ex, *body);
      co_return already_answered();
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

  // ---- 2026-07-28 --------------------------------------------------------------------

  static modern_headers headers_of(const codec::http_request& req) {
    auto present = [&req](std::string_view name) -> std::optional<std::string_view> {
      if (!req.has_header(name)) return std::nullopt;
      return req.header(name);
    };
    return modern_headers{true, present(version_header), present(method_header), present(name_header)};
  }

  // One 2026-07-28 request: no session; its _meta and headers are checked on every request
  // (modern_request), then server/discover, tools/list, tools/call (SSE, like 2025) and
  // subscriptions/listen are answered.  Removed methods (initialize, ping,
  // logging/setLevel) and unknown ones are 404 with -32601.
  awaitable<void> modern_post(net::http_exchange& ex, const json::value& body) {
    if (!body.is_object()) {
      ex.respond(transport_error(400, rpc_error::invalid_request("a " + std::string(modern_protocol_version) +
                                                                 " POST carries exactly one JSON-RPC message (no batches)")));
      co_return;
    }
    auto c = classify(body);
    if (!c) {
      ex.respond(json_response(400, error_json(c.id, c.error)));
      co_return;
    }
    const auto& m = *c.msg;
    if (m.kind == message_kind::notification) {
      // Over HTTP a client cancels by closing the request's stream; notifications need nothing.
      ex.respond(net::http_response::empty(202));
      co_return;
    }
    if (m.kind == message_kind::response) {
      ex.respond(transport_error(400, rpc_error::invalid_request("a " + std::string(modern_protocol_version) +
                                                                 " client sends no responses (input goes in inputResponses of a retried request)")));
      co_return;
    }
    auto admitted = admit_modern(m, headers_of(ex.request()), ex.request().body.size());
    if (!admitted) {
      ex.respond(json_response(admitted.refused.http_status, error_json(m.id, admitted.refused.error)));
      co_return;
    }
    // The part of the client's identity it cannot choose: its credential (tasks and listen
    // streams are keyed by both, client_context::identity).
    admitted.client->caller = peer_proof::caller_identity(ex.request().header("Authorization"));
    const auto& client = *admitted.client;
    stateless_clients.heard_from(client.client_name);
    if (m.method == "server/discover") {
      ex.respond(json_response(200, response_json(m.id, discover_result(options.gateway, options.server_version))));
    } else if (m.method == "tools/list") {
      auto p = parse_tools_list(m.params());
      if (!p) {
        ex.respond(json_response(200, error_json(m.id, p.error)));
      } else if (options.gateway) {
        ex.respond(json_response(200, response_json(m.id, with_leading_fields(gateway::tools_list_result(),
                                                                              cacheable_fields(tool_catalog::tools_list_ttl_ms, "private")))));
      } else {
        auto split = catalog.cacheable_tools_list_response(m.id);
        ex.respond(json_response(200, std::move(split.before)), std::move(split.listing), std::move(split.after));
      }
    } else if (m.method == "tools/call") {
      co_await modern_tools_call(ex, body, m, client);
    } else if (m.method == "subscriptions/listen") {
      co_await listen(ex, m, client);
    } else if (m.method == "tasks/get" || m.method == "tasks/update" || m.method == "tasks/cancel") {
      auto answer = task_request(m, client);
      ex.respond(json_response(answer.http_status, std::move(answer.body)));
    } else {
      auto refused = method_not_found(m.method);
      ex.respond(json_response(refused.http_status, error_json(m.id, refused.error)));
    }
  }

  // A 2026-07-28 tools/call: its headers must repeat the params; a tool the client cannot
  // use as it declared itself is refused; the call runs as a task when the client takes
  // them, else on an SSE stream.
  awaitable<void> modern_tools_call(net::http_exchange& ex, const json::value& body, const message& m,
                                    const client_context& client) {
    if (auto refused = check_param_headers(ex.request(), m)) {
      ex.respond(json_response(refused->http_status, error_json(m.id, refused->error)));
      co_return;
    }
    const auto* named = json::get_string(m.params(), "name");
    // The gateway's opentabs_call may reach any tool: it runs with the default traits.
    const auto traits = named && !options.gateway ? service.traits_of(*named) : tools::call_traits{};
    if (auto refused = refuse_undeclared(named ? std::string_view(*named) : std::string_view(), traits, client)) {
      ex.respond(json_response(400, error_json(m.id, *refused)));
      co_return;
    }
    if (client.declares_extension(tasks_extension) && traits.tasks != tools::task_support::forbidden) {
      co_await call_as_task(ex, body, client);
      co_return;
    }
    ex.start_stream_deferred(200, sse_headers());
    auto sink = std::make_shared<stream_sink>();
    sink->ex = &ex;
    sink_guard guard{sink};
    auto answer = guarded(m, [&] { return call(nullptr, m, sink, &client); });
    auto r = co_await std::move(answer);
    if (r) sink->send(*r);
    ex.end_stream();
  }

  // A tool the client cannot use as it declared itself: one that needs a client capability
  // it did not declare, or one answered only as a task to a client without the extension.
  static std::optional<rpc_error> refuse_undeclared(std::string_view tool, const tools::call_traits& traits, const client_context& client) {
    const std::string shown = quote_for_error(tool, 64);
    if (!traits.requires_client_capability.empty() && !client.declares(traits.requires_client_capability))
      return missing_capability_error(traits.requires_client_capability, "tool " + shown + " needs it; declare it in _meta to call the tool");
    if (traits.tasks == tools::task_support::required && !client.declares_extension(tasks_extension))
      return missing_extension_error(tasks_extension, "is needed: tool " + shown + " is only answered as a task");
    return std::nullopt;
  }

  // ---- the tasks extension ----------------------------------------------------------

  // Cancels the calls of tasks the store dropped (expired, or evicted by a newer one).
  void drop_runs(const std::vector<std::string>& ids) {
    for (const auto& id : ids) {
      auto it = task_runs.find(id);
      if (it == task_runs.end()) continue;
      auto run = it->second;
      task_runs.erase(it);
      release_answers(*run);
      run->call->cancel_now();
    }
  }

  // Questions nobody will answer any more get "no answer" (the waiting call goes on or ends).
  static void release_answers(task_run& run) {
    auto answers = std::move(run.answers);
    run.answers.clear();
    for (auto& [key, answer] : answers) answer(nullptr);
  }

  // A tools/call from a client that declared the tasks extension: the call runs detached;
  // answered directly when it ends within task_after, else as a task handle (the record is
  // published before the handle goes out, so an immediate tasks/get finds it).
  awaitable<void> call_as_task(net::http_exchange& ex, const json::value& body, const client_context& client) {
    auto self = shared_from_this();
    drop_runs(task_records.expire(now_epoch_ms()));
    auto run = std::make_shared<task_run>(exec);
    run->body = json::copy_out(body);
    run->msg = classify(run->body).msg;
    run->client = client;
    run->id = task_records.open(client.identity(), now_epoch_ms());
    task_runs.emplace(run->id, run);
    auto work = run_task(self, run);
    if (!options.tasks) {
      asio::co_spawn(exec, std::move(work), net::log_failure("mcp task"));
    } else if (!options.tasks->spawn(std::move(work), "mcp task")) {
      task_runs.erase(run->id);
      task_records.discard(run->id);
      ex.respond(transport_error(503, "Service Unavailable: the server is shutting down"));
      co_return;
    }
    const auto answer_by = net::steady_clock::now() + options.task_after;
    while (!run->finished)
      if (!co_await run->finished_changed.wait_until(answer_by)) break;
    auto published = run->finished ? std::nullopt : task_records.publish(run->id, now_epoch_ms());
    if (!published) {
      // Ended in time, or the client's tasks are all running: answered when the call ends.
      while (!run->finished) co_await run->finished_changed.wait();
      task_records.discard(run->id);
      if (run->response) {
        ex.respond(json_response(200, std::move(*run->response)));
      } else {
        ex.respond(json_response(200, error_json(run->msg->id, rpc_error::internal("the call was cancelled"))));
      }
      co_return;
    }
    drop_runs(*published);
    ex.respond(json_response(200, response_json(run->msg->id, task_records.create_result(*task_records.record(run->id)))));
    const auto* tool = json::get_string(run->msg->params(), "name");
    log::info(std::string(name()) + ": tools/call \"" + std::string(tool ? std::string_view(*tool).substr(0, 64) : "") +
              "\" continues as task " + short_id(run->id));
  }

  // `self` keeps the state alive while the call runs detached.
  awaitable<void> run_task([[maybe_unused]] std::shared_ptr<endpoint_state> self, std::shared_ptr<task_run> run) {
    auto answer = guarded(*run->msg, [&] { return call(nullptr, *run->msg, nullptr, &run->client, run); });
    auto response = co_await std::move(answer);
    run->finished = true;
    task_runs.erase(run->id);
    release_answers(*run);
    const auto* record = task_records.record(run->id);
    if (!record || !record->published) {
      run->response = std::move(response);
      run->finished_changed.notify_all();
      co_return;
    }
    settle_task(run->id, response);
  }

  // A published task's call ended: its response becomes the task's result or error.
  void settle_task(const std::string& id, const std::optional<std::string>& response) {
    const auto now = now_epoch_ms();
    if (!response) {
      task_records.cancel(id, now);
      return;
    }
    json::arena memory;
    auto parsed = json::parse(*response, memory);
    const auto* o = parsed ? parsed->if_object() : nullptr;
    const auto* result = o ? json::find(*o, "result") : nullptr;
    const auto* error = o ? json::find(*o, "error") : nullptr;
    const auto* type = result && result->is_object() ? json::get_string(result->get_object(), "resultType") : nullptr;
    if (result && result->is_object() && !(type && *type == "input_required")) {
      auto owned = json::copy_out(*result);
      task_records.complete(id, std::move(owned.as_object()), now);
    } else if (error && error->is_object()) {
      auto owned = json::copy_out(*error);
      task_records.fail(id, std::move(owned.as_object()), now);
    } else {
      task_records.fail(id, rpc_error::internal("the call asked for input after it became a task").to_json(), now);
    }
  }

  // The question a task's call puts to the client: it becomes one of the task's
  // inputRequests, answered by tasks/update.
  std::function<bool(json::object, tools::call_options::answer_fn)> task_elicit(const std::shared_ptr<task_run>& run) {
    std::weak_ptr<task_run> weak = run;
    return [this, weak](json::object params, tools::call_options::answer_fn answer) {
      auto r = weak.lock();
      if (!r || r->finished) return false;
      auto key = task_records.ask(r->id, json::object{{"method", "elicitation/create"}, {"params", std::move(params)}}, now_epoch_ms());
      if (!key) return false;
      r->answers.emplace(std::move(*key), std::move(answer));
      return true;
    };
  }

  struct http_answer {
    int http_status = 200;
    std::string body;
  };

  // tasks/get, tasks/update, tasks/cancel.
  http_answer task_request(const message& m, const client_context& client) {
    if (!client.declares_extension(tasks_extension))
      return {400, error_json(m.id, missing_extension_error(tasks_extension, "must be declared in _meta clientCapabilities to use " + m.method))};
    const auto* id = json::get_string(m.params(), "taskId");
    if (!id) return {200, error_json(m.id, rpc_error::invalid_params("params.taskId", "is required (the taskId of a CreateTaskResult)"))};
    const auto now = now_epoch_ms();
    drop_runs(task_records.expire(now));
    const auto* task = task_records.find(*id, client.identity(), now);
    if (!task)
      return {200, error_json(m.id, rpc_error::invalid_params_text("Task not found: " + quote_for_error(*id, 64) +
                                                                   " is unknown, expired or evicted (tasks are kept " +
                                                                   std::to_string(task_records.limits().ttl.count()) + " ms, at most " +
                                                                   std::to_string(task_records.limits().max_per_client) + " per client)"))};
    if (m.method == "tasks/get") return {200, response_json(m.id, task_records.detailed(*task))};
    const std::string key(*id);
    if (m.method == "tasks/update") {
      const auto* responses = json::find(m.params(), "inputResponses");
      if (!responses || !responses->is_object())
        return {200, error_json(m.id, rpc_error::invalid_params("params.inputResponses", "must be an object keyed by the task's inputRequests keys"))};
      auto accepted = task_records.answer(key, responses->get_object(), now);
      if (auto it = task_runs.find(key); it != task_runs.end()) {
        auto run = it->second;
        for (auto& [k, value] : accepted) {
          auto waiting = run->answers.find(k);
          if (waiting == run->answers.end()) continue;
          auto answer = std::move(waiting->second);
          run->answers.erase(waiting);
          answer(&value);
        }
      }
    } else if (task_records.cancel(key, now)) {
      if (auto it = task_runs.find(key); it != task_runs.end()) {
        auto run = it->second;
        run->call->cancel_now();
        release_answers(*run);
      }
    }
    return {200, response_json(m.id, json::object{{"resultType", "complete"}})};
  }

  // x-mcp-header: the called tool's mirrored parameters against their Mcp-Param-* headers.
  // (The gateway's two tools mirror nothing.)
  std::optional<refusal> check_param_headers(const codec::http_request& req, const message& m) {
    if (options.gateway) return std::nullopt;
    const auto* name = json::get_string(m.params(), "name");
    const auto* arguments = json::get_object(m.params(), "arguments");
    const auto* schema = name ? catalog.input_schema_of(*name) : nullptr;
    if (!schema || !arguments) return std::nullopt;
    auto params = mirrored_params(*schema);
    if (params.empty()) return std::nullopt;
    return check_mirrored_params(params, *arguments, [&req](std::string_view h) -> std::optional<std::string_view> {
      if (!req.has_header(h)) return std::nullopt;
      return req.header(h);
    });
  }

  std::size_t listeners_of(const std::string& identity) const {
    return static_cast<std::size_t>(std::count_if(listeners.begin(), listeners.end(), [&](const auto& l) { return l->client == identity; }));
  }

  // Ends the listen streams whose client has gone (their coroutines finish on their own).
  void drop_gone_listeners() {
    std::erase_if(listeners, [](const std::shared_ptr<listener>& l) {
      if (l->sink->ex && !l->sink->ex->peer_closed_now()) return false;
      l->sink->end_soon();
      return true;
    });
  }

  // subscriptions/listen: the acknowledgement, then the notifications the filter asked for,
  // until the client closes the stream or the server shuts down (then the listen request
  // is answered, which ends the subscription gracefully).
  awaitable<void> listen(net::http_exchange& ex, const message& m, const client_context& client) {
    auto p = parse_listen(m.params());
    if (!p) {
      ex.respond(json_response(400, error_json(m.id, p.error)));
      co_return;
    }
    auto mine = listeners_of(client.identity());
    // A client that closed its streams without a word still has them here until a keep-alive
    // write fails; before refusing anyone for want of room, the sockets are asked.
    if (mine >= max_listeners_per_client || listeners.size() >= max_listeners) {
      drop_gone_listeners();
      mine = listeners_of(client.identity());
    }
    if (mine >= max_listeners_per_client || listeners.size() >= max_listeners) {
      const auto why = mine >= max_listeners_per_client
                           ? "this client has " + std::to_string(mine) + " subscriptions/listen streams open (the limit is " +
                                 std::to_string(max_listeners_per_client) + "); close one first"
                           : std::to_string(listeners.size()) + " subscriptions/listen streams are open (the limit is " +
                                 std::to_string(max_listeners) + "); retry later";
      ex.respond(json_response(429, error_json(m.id, rpc_error::from(make_error(errc::rate_limited, why)))));
      co_return;
    }
    ex.start_stream(200, sse_headers());
    auto l = std::make_shared<listener>();
    l->sink = std::make_shared<stream_sink>();
    l->sink->ex = &ex;
    l->sink->wake = std::make_unique<net::event>(exec);
    l->subscription_id = json::copy_out(m.id);
    l->tools_list_changed = p.value->tools_list_changed;
    l->client = client.identity();
    sink_guard guard{l->sink};
    l->sink->send(listen_acknowledgement(l->subscription_id, *p.value));
    listeners.push_back(l);
    std::function<bool()> ended = [this] { return shut; };
    auto hold = hold_standalone_stream(l->sink, options.sse_keepalive_interval, std::move(ended));
    co_await std::move(hold);
    std::erase(listeners, l);
    if (shut)
      l->sink->send(response_json(m.id, json::object{{"resultType", "complete"},
                                                     {"_meta", json::object{{meta_key::subscription_id, l->subscription_id}}}}));
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

  // Awaits one request's answer; nullopt when it was cancelled (no response is sent then).
  // The one place where an exception from any request becomes a JSON-RPC internal error:
  // every request ends with a result or an error, whatever threw.
  // `start` makes the request's awaitable, inside the guard: a handler may throw before it
  // first suspends.
  template <class Start>
  awaitable<std::optional<std::string>> guarded(const message& m, Start start) {
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
    co_return error_json(m.id, rpc_error::internal("the request failed unexpectedly; see the server log"));
  }

  // Answers one request of a session through the method table.
  awaitable<std::optional<std::string>> run_request(std::shared_ptr<live_session> s, const message& m, std::shared_ptr<stream_sink> sink) {
    busy_guard busy(s->rec, table);
    const auto* method = methods.find(m.method, true);
    if (!method) co_return error_json(m.id, rpc_error::method_not_found(m.method));
    // Named, not temporaries inside the co_await: GCC 12 destroys some temporaries of a
    // co_await expression twice, which would drop a reference to the session too many.
    request_context ctx{std::move(s), m, std::move(sink)};
    auto answer = guarded(m, [&] { return method->handler(std::move(ctx)); });
    co_return co_await std::move(answer);
  }

  // tools/call in either era: routes gateway meta-tools, then awaits the pipeline (its
  // stream kept alive by a call_stream_keeper when the answer streams).  A 2025 call (`s`
  // set) is registered in its session for notifications/cancelled; a 2026-07-28 call
  // (`modern` set, no session) is cancelled by closing its stream and gets plugin logs
  // only when its _meta asked for a log level.
  // `run`: the call may become a task (its in-flight record and its questions are the run's).
  awaitable<std::optional<std::string>> call(std::shared_ptr<live_session> s, const message& m, std::shared_ptr<stream_sink> sink,
                                             const client_context* modern, std::shared_ptr<task_run> run = nullptr) {
    auto p = parse_tools_call(m.params());
    if (!p) co_return error_json(m.id, p.error);
    auto& req = *p.value;
    const auto key = id_key(m.id);
    if (s && s->calls.count(key))
      co_return error_json(m.id, rpc_error::invalid_request("request id " + json::dump(m.id) + " is already used by a call in flight"));

    auto c = run ? run->call : std::make_shared<in_flight_call>();
    c->sink = sink;
    c->progress_token = req.progress_token;
    tools::call_options opts = call_options_for(s, sink, modern, run, req, c);
    if (!modern && (req.input_responses || req.request_state)) {
      co_return error_json(m.id, rpc_error::invalid_params("params.inputResponses", "and params.requestState belong to protocol revision " +
                                                                             std::string(modern_protocol_version) + ", not to a session"));
    }

    std::string tool = std::move(req.name);
    json::object arguments = std::move(req.arguments);
    if (options.gateway) {
      if (auto answer = route_through_gateway(m, modern, tool, arguments)) co_return answer;
    }
    c->plugin = std::string(catalog.plugin_of(tool));

    if (s) s->calls.emplace(key, c);
    if (modern && modern->min_log_level) logged_calls.emplace(c.get(), *modern->min_log_level);
    auto pipeline = await_registered_call(s.get(), key, c, sink, modern, std::move(tool), std::move(arguments), std::move(opts));
    tools::call_result result = co_await std::move(pipeline);
    if (c->cancelled) co_return std::nullopt;
    co_return tools_call_response(m.id, result, options.gateway, modern != nullptr);
  }

  // How the pipeline reaches back to the caller of one call: its cancellation, its origin,
  // the input round of a 2026-07-28 call or the elicitation a 2025 session's client
  // supports, and where its progress goes when a progress token asks for it.
  tools::call_options call_options_for(const std::shared_ptr<live_session>& s, const std::shared_ptr<stream_sink>& sink,
                                       const client_context* modern, const std::shared_ptr<task_run>& run,
                                       tools_call_request& req, const std::shared_ptr<in_flight_call>& c) {
    tools::call_options opts;
    opts.cancel = c->cancel;
    opts.origin = options.gateway ? "gateway" : "mcp";
    opts.client = modern ? modern->client_name : s ? s->rec->client_name : std::string();
    // Per-caller budgets: a 2026-07-28 request's credential and name; a session's server-issued id.
    opts.caller = modern ? "mcp " + modern->identity() : s ? "session " + s->id : std::string("mcp");
    if (modern) {
      auto input = std::make_shared<tools::input_round>();
      input->client_capabilities = modern->capabilities;
      input->client = modern->client_name;
      input->request_state = std::move(req.request_state);
      input->responses = std::move(req.input_responses);
      opts.input = std::move(input);
      if (run && modern->declares("elicitation")) opts.elicit = task_elicit(run);
    } else if (s && sink && s->rec->client_elicits_form) {
      std::weak_ptr<live_session> session = s;
      std::weak_ptr<stream_sink> stream = sink;
      auto asked = std::make_shared<std::vector<std::string>>();
      opts.elicit = [session, stream, asked](json::object params, tools::call_options::answer_fn answer) {
        auto live = session.lock();
        auto out = stream.lock();
        auto id = live && out ? live->ask_client(*out, "elicitation/create", std::move(params), std::move(answer)) : std::nullopt;
        if (id) asked->push_back(std::move(*id));
        return id.has_value();
      };
      opts.withdraw_elicitations = [session, stream, asked](std::string_view reason) {
        auto live = session.lock();
        auto out = stream.lock();
        if (live && out)
          for (const auto& id : *asked) live->withdraw_request(*out, id, reason);
        asked->clear();
      };
    }
    if (!c->progress_token.is_null()) {
      std::weak_ptr<in_flight_call> weak = c;
      opts.on_progress = [weak](const tools::progress_update& u) {
        if (auto call = weak.lock()) call->forward_progress(u);
      };
    }
    return opts;
  }

  // A gateway meta-tool either answers itself (the response returned) or names the plugin
  // tool to run, which replaces `tool` and `arguments`.
  std::optional<std::string> route_through_gateway(const message& m, const client_context* modern, std::string& tool,
                                                   json::object& arguments) {
    auto route = route_gateway_call(catalog, tool, std::move(arguments));
    if (route.what == gateway_route::kind::answer) {
      auto answer = route.answer.to_json();
      if (modern) answer["resultType"] = "complete";
      return response_json(m.id, answer);
    }
    if (route.what == gateway_route::kind::error) return error_json(m.id, route.error);
    tool = std::move(route.target.tool);
    arguments = std::move(route.target.arguments);
    return std::nullopt;
  }

  // Runs a call already registered (in its session, in logged_calls) through the pipeline
  // and unregisters it however the call ends, a throwing pipeline included.
  awaitable<tools::call_result> await_registered_call(live_session* s, const std::string& key, std::shared_ptr<in_flight_call> c,
                                                      std::shared_ptr<stream_sink> sink, const client_context* modern,
                                                      std::string tool, json::object arguments, tools::call_options opts) {
    struct erase_on_exit {
      endpoint_state& st;
      live_session* s;
      const std::string& key;
      const std::shared_ptr<in_flight_call>& c;
      ~erase_on_exit() {
        st.logged_calls.erase(c.get());
        if (!s) return;
        auto it = s->calls.find(key);
        if (it != s->calls.end() && it->second == c) s->calls.erase(it);
      }
    } erase{*this, s, key, c};
    // The keeper's timer ends with this call, however it ends, so no keep-alive outlives it.
    std::optional<call_stream_keeper> keeper;
    std::function<void()> on_peer_gone;
    if (modern) on_peer_gone = [c] { c->cancel_now(); };
    if (sink) keeper.emplace(call_deadlines, sink, options.sse_head_delay, options.sse_keepalive_interval, std::move(on_peer_gone));
    auto call = service.call_tool(std::move(tool), std::move(arguments), std::move(opts));
    co_return co_await std::move(call);
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
  counts.stateless_clients = impl_->st->stateless_clients.count_within(window);
  return counts;
}

void endpoint::shutdown() { impl_->st->shutdown(); }

}  // namespace opentabs::mcp
