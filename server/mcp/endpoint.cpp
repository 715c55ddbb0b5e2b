// The coroutine glue of an MCP Streamable HTTP endpoint.  Protocol decisions come from the
// sans-I/O pieces (jsonrpc, protocol_version, session_table, requests, streamable_http,
// tool_catalog, gateway_tools, server_info); this file only reads requests, awaits the
// tool pipeline and writes JSON or SSE.  Everything runs on the server's io thread.
//
// Lifetimes: each session is one coroutine (session_life) that owns its idle deadline and
// ends the session when it passes; POST and GET handlers run in the HTTP connection's
// coroutine and reach the session through a shared_ptr, so a session that ends while a
// request is in flight only makes that request finish early.  The endpoint's state is
// shared with every coroutine it started, so destroying the endpoint object never leaves a
// suspended coroutine pointing at freed memory.
#include "mcp/endpoint.hpp"

#include <cmath>
#include <cstdlib>
#include <exception>
#include <unordered_map>
#include <vector>

#include "mcp/gateway_tools.hpp"
#include "mcp/jsonrpc.hpp"
#include "mcp/log_level.hpp"
#include "mcp/protocol_version.hpp"
#include "mcp/requests.hpp"
#include "mcp/server_info.hpp"
#include "mcp/session_table.hpp"
#include "mcp/streamable_http.hpp"
#include "mcp/tool_catalog.hpp"
#include "net/caught.hpp"
#include "net/task_group.hpp"
#include "util/env.hpp"
#include "util/log.hpp"
#include "util/strings.hpp"

namespace opentabs::mcp {

using namespace asio::experimental::awaitable_operators;
using net::awaitable;
using net::as_value;

namespace {

// A response stream (a POST answered as SSE, or the standalone GET stream).  The handler
// that owns the exchange clears `ex` before it returns, so late producers (a progress
// report racing the end of a call) find a closed sink instead of a dangling exchange.
struct stream_sink {
  net::http_exchange* ex = nullptr;
  std::unique_ptr<asio::steady_timer> wake;  // standalone streams: keep-alive / end signal
  bool ending = false;
  bool send(std::string_view json_message) { return ex && ex->send_chunk(sse_message_event(json_message)); }
  bool send_raw(std::string_view bytes) { return ex && ex->send_chunk(bytes); }
  bool open() const { return ex && !ex->peer_gone(); }
};

// Clears a sink when the handler that owns its exchange leaves, however it leaves.
struct sink_guard {
  std::shared_ptr<stream_sink> sink;
  ~sink_guard() {
    if (sink) sink->ex = nullptr;
  }
};

// One tools/call in flight: what notifications/cancelled needs and where its progress and
// plugin logs go.
struct in_flight_call {
  std::shared_ptr<tools::cancel_source> cancel = std::make_shared<tools::cancel_source>();
  std::shared_ptr<stream_sink> sink;
  std::string plugin;         // owner of the called tool, for routing plugin logs
  json::value progress_token; // null: the caller asked for no progress
  std::optional<double> last_progress;
  bool cancelled = false;
};

struct live_session {
  live_session(asio::any_io_executor ex, std::shared_ptr<session_record> r)
      : rec(std::move(r)), id(rec->id), life_timer(ex) {}
  std::shared_ptr<session_record> rec;
  std::string id;
  asio::steady_timer life_timer;    // session_life's idle deadline
  std::shared_ptr<stream_sink> standalone;
  std::unordered_map<std::string, std::shared_ptr<in_flight_call>> calls;  // by id_key
  bool list_changed_pending = false;  // a list_changed that found no open stream
  bool ended = false;
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

json::value number_value(double d) {
  if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9e15) return static_cast<std::int64_t>(d);
  return d;
}

net::header_list sse_headers() {
  return {{"Content-Type", "text/event-stream"}, {"Cache-Control", "no-cache"}, {"X-Accel-Buffering", "no"}};
}

net::http_response json_body(int status, std::string body) {
  net::http_response res;
  res.status = status;
  res.headers.emplace_back("Content-Type", "application/json");
  res.body = std::move(body);
  return res;
}

std::string short_id(std::string_view id) { return std::string(id.substr(0, 8)); }

std::string first_text(const tools::call_result& r) {
  for (const auto& block : r.content)
    if (block.is_object())
      if (const auto* t = json::get_string(block.get_object(), "text")) return std::string(*t);
  return "Unknown tool";
}

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
  return o;
}

namespace {

struct endpoint_state : std::enable_shared_from_this<endpoint_state> {
  endpoint_state(asio::any_io_executor e, tools::tool_service& s, tools::server_events& ev, endpoint_options o)
      : exec(std::move(e)), service(s), events(ev), options(std::move(o)),
        table(options.session_idle_expiry, options.max_new_sessions_per_minute), catalog(s) {}

  asio::any_io_executor exec;
  tools::tool_service& service;
  tools::server_events& events;
  endpoint_options options;
  session_table table;
  tool_catalog catalog;
  std::unordered_map<std::string, std::shared_ptr<live_session>> sessions;
  tools::server_events::token tools_token = 0, log_token = 0;
  bool shut = false;

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
    const auto note = notification_json("notifications/tools/list_changed");
    for (auto& [id, s] : sessions) {
      if (deliver_unsolicited(*s, note, "")) continue;
      s->list_changed_pending = true;  // sent when the standalone stream opens
    }
  }

  void on_plugin_log(const tools::plugin_log_entry& entry) {
    // Gateway sessions do not receive plugin logs (as in OpenTabs): they asked for a
    // minimal surface.
    if (options.gateway) return;
    const auto level = plugin_log_level(entry.level);
    std::string note;
    for (auto& [id, s] : sessions) {
      if (!s->rec->log.passes(level)) continue;
      if (note.empty()) note = notification_json("notifications/message", plugin_log_params(entry));
      deliver_unsolicited(*s, note, entry.plugin);
    }
  }

  // A message not answering anything: on the stream of a call to `plugin`'s tools when
  // there is one (logs of a running call belong with it), else the standalone stream,
  // else any open call stream.  False when the session has no open stream.
  bool deliver_unsolicited(live_session& s, const std::string& note, std::string_view plugin) {
    if (!plugin.empty())
      for (auto& [key, c] : s.calls)
        if (c->plugin == plugin && c->sink && c->sink->open() && c->sink->send(note)) return true;
    if (s.standalone && s.standalone->open() && s.standalone->send(note)) return true;
    for (auto& [key, c] : s.calls)
      if (c->sink && c->sink->open() && c->sink->send(note)) return true;
    return false;
  }

  // ---- sessions ---------------------------------------------------------------------

  std::shared_ptr<live_session> find_session(std::string_view id) {
    auto it = sessions.find(std::string(id));
    if (it == sessions.end()) return nullptr;
    if (!table.find(id)) {  // idle-expired, its coroutine has not woken up yet
      end_session(it->second, "idle expiry");
      return nullptr;
    }
    return it->second;
  }

  void end_session(std::shared_ptr<live_session> s, std::string_view why) {
    if (s->ended) return;
    s->ended = true;
    s->life_timer.cancel();
    if (s->standalone) end_stream_soon(*s->standalone);
    // Copied first: a cancel hook belongs to the pipeline and must not be able to
    // invalidate this iteration.
    std::vector<std::shared_ptr<in_flight_call>> calls;
    for (auto& [key, c] : s->calls) calls.push_back(c);
    for (auto& c : calls) {
      c->cancelled = true;
      c->cancel->cancel();
    }
    table.remove(s->id);
    sessions.erase(s->id);
    log::info(std::string(name()) + " session " + short_id(s->id) + " ended (" + std::string(why) + ")");
  }

  // The session's coroutine: sleeps until its idle deadline, re-checks (activity moves
  // the deadline), and ends the session when it passed.  Ends early when the session is
  // deleted or the endpoint shuts down.
  awaitable<void> session_life(std::shared_ptr<live_session> s) {
    auto self = shared_from_this();
    while (!s->ended) {
      s->life_timer.expires_at(table.next_check(*s->rec));
      co_await s->life_timer.async_wait(as_value);
      if (s->ended) break;
      if (table.expired(*s->rec)) end_session(s, "idle expiry");
    }
  }

  void start_session_coroutine(std::shared_ptr<live_session> s) {
    asio::co_spawn(exec, session_life(std::move(s)), net::log_failure("mcp session coroutine"));
  }

  void shutdown() {
    if (shut) return;
    shut = true;
    events.unsubscribe(tools_token);
    events.unsubscribe(log_token);
    std::vector<std::shared_ptr<live_session>> all;
    for (auto& [id, s] : sessions) all.push_back(s);
    for (auto& s : all) end_session(s, "server shutting down");
  }

  // ---- HTTP entry -------------------------------------------------------------------

  awaitable<void> handle(net::http_exchange& ex) {
    auto self = shared_from_this();
    if (shut) {
      ex.respond(transport_error(503, "Service Unavailable: the server is shutting down"));
      co_return;
    }
    const auto& method = ex.request().method;
    if (method == "POST") {
      co_await handle_post(ex);
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

  // The session a GET/DELETE/POST names, or an error response already sent.
  std::shared_ptr<live_session> session_for(net::http_exchange& ex) {
    auto sid = trim(ex.request().header(session_header));
    if (sid.empty()) {
      ex.respond(transport_error(400, rpc_error::invalid_request("Bad Request: Mcp-Session-Id header is required (send initialize first to start a session)")));
      return nullptr;
    }
    auto s = find_session(sid);
    if (!s) {
      ex.respond(transport_error(404, rpc_error{rpc_code::session_not_found, "Session not found: it expired or was deleted; start a new session with initialize", nullptr}));
      return nullptr;
    }
    auto version = effective_version(ex.request().header(version_header), s->rec->protocol_version);
    if (!version) {
      ex.respond(transport_error(400, version.err().message));
      return nullptr;
    }
    return s;
  }

  void handle_delete(net::http_exchange& ex) {
    auto s = session_for(ex);
    if (!s) return;
    end_session(s, "deleted by the client");
    ex.respond(net::http_response::empty(200));
  }

  awaitable<void> handle_get(net::http_exchange& ex) {
    if (!accepts(ex.request().header("Accept"), "text/event-stream")) {
      ex.respond(transport_error(406, "Not Acceptable: the standalone stream needs Accept: text/event-stream"));
      co_return;
    }
    auto s = session_for(ex);
    if (!s) co_return;
    // One standalone stream per session: a new GET takes over from an older one (which
    // may belong to a connection that died unnoticed; see standalone_stream).
    if (auto old = s->standalone) end_stream_soon(*old);
    ex.start_stream(200, sse_headers());
    auto sink = std::make_shared<stream_sink>();
    sink->ex = &ex;
    sink->wake = std::make_unique<asio::steady_timer>(exec);
    sink_guard guard{sink};
    s->standalone = sink;
    busy_guard busy(s->rec, table);
    if (s->list_changed_pending) {
      s->list_changed_pending = false;
      sink->send(notification_json("notifications/tools/list_changed"));
    }
    co_await standalone_stream(s, sink);
    if (s->standalone == sink) s->standalone.reset();
    ex.end_stream();
  }

  static void end_stream_soon(stream_sink& sink) {
    sink.ending = true;
    if (sink.wake) sink.wake->cancel();
  }

  // Holds a standalone stream open until the session ends, a newer GET takes over, or a
  // write fails (the peer is gone).  Quiet streams get a keep-alive comment each interval,
  // which is also how a vanished peer is noticed: the connection's reader is not running
  // while this handler owns the exchange.  (http_exchange::wait_peer_closed would notice
  // sooner, but raced with `||` it crashes under GCC 12; see the mcp report.)
  awaitable<void> standalone_stream(std::shared_ptr<live_session> s, std::shared_ptr<stream_sink> sink) {
    // Loops leave with break, never co_return: GCC 12 mis-compiles some co_returns and
    // negated co_awaits inside loops (observed as resumed-after-completion crashes).
    while (!s->ended && !sink->ending) {
      sink->wake->expires_after(options.sse_keepalive_interval);
      auto [ec] = co_await sink->wake->async_wait(as_value);
      if (ec || s->ended || sink->ending) break;
      bool sent = sink->send_raw(sse_keepalive_comment());
      if (!sent) break;
    }
  }

  // Keeps a POST's SSE stream alive while a call runs; only ever ends by being cancelled
  // when the call completes (the `||` below), so it never abandons the call itself.
  awaitable<void> call_keepalive(std::shared_ptr<stream_sink> sink) {
    asio::steady_timer timer(exec);
    while (true) {
      timer.expires_after(options.sse_keepalive_interval);
      auto [ec] = co_await timer.async_wait(as_value);
      if (ec) break;
      sink->send_raw(sse_keepalive_comment());
    }
  }

  // ---- POST -------------------------------------------------------------------------

  awaitable<void> handle_post(net::http_exchange& ex) {
    const auto& req = ex.request();
    if (!accepts(req.header("Accept"), "application/json") || !accepts(req.header("Accept"), "text/event-stream")) {
      ex.respond(transport_error(406, "Not Acceptable: the client must accept both application/json and text/event-stream"));
      co_return;
    }
    if (!is_json_content_type(req.header("Content-Type"))) {
      ex.respond(transport_error(415, "Unsupported Media Type: Content-Type must be application/json"));
      co_return;
    }
    auto body = json::parse(req.body);
    if (!body) {
      ex.respond(transport_error(400, rpc_error::parse_error(body.err().message)));
      co_return;
    }
    if (trim(req.header(session_header)).empty()) {
      post_without_session(ex, *body);
      co_return;
    }
    auto s = session_for(ex);
    if (!s) co_return;
    table.touch(*s->rec);

    std::vector<classified> items;
    const bool batch = body->is_array();
    if (batch) {
      const auto& arr = body->get_array();
      if (!allows_batches(s->rec->protocol_version)) {
        ex.respond(transport_error(400, rpc_error::invalid_request("JSON-RPC batches are not supported in protocol version " + s->rec->protocol_version +
                                                                   " (only 2025-03-26); send one message per POST")));
        co_return;
      }
      if (arr.empty()) {
        ex.respond(transport_error(400, rpc_error::invalid_request("empty batch")));
        co_return;
      }
      if (arr.size() > options.max_batch_messages) {
        ex.respond(transport_error(400, rpc_error::invalid_request("batch of " + std::to_string(arr.size()) + " messages exceeds the limit of " +
                                                                   std::to_string(options.max_batch_messages))));
        co_return;
      }
      for (const auto& v : arr) items.push_back(classify(v));
    } else {
      items.push_back(classify(*body));
      if (!items[0]) {
        ex.respond(json_body(400, error_json(items[0].id, items[0].error)));
        co_return;
      }
    }

    // Notifications and client responses take effect at once; requests are answered.
    bool any_request = false, stream = false;
    for (const auto& it : items) {
      if (!it) {
        any_request = true;
        continue;
      }
      if (it.msg->kind == message_kind::notification) handle_notification(*s, *it.msg);
      if (it.msg->kind != message_kind::request) continue;
      any_request = true;
      if (it.msg->method == "tools/call") stream = true;
    }
    if (!any_request) {
      ex.respond(net::http_response::empty(202));
      co_return;
    }

    if (!stream) {
      std::vector<std::string> responses;
      for (auto& it : items) {
        if (!it) {
          responses.push_back(error_json(it.id, it.error));
        } else if (it.msg->kind == message_kind::request) {
          auto r = co_await run_request(s, *it.msg, nullptr);
          if (r) responses.push_back(std::move(*r));
        }
      }
      if (responses.empty()) {
        ex.respond(net::http_response::empty(202));
      } else if (!batch) {
        ex.respond(json_body(200, std::move(responses[0])));
      } else {
        std::string out = "[";
        for (std::size_t i = 0; i < responses.size(); ++i) {
          if (i) out += ',';
          out += responses[i];
        }
        out += ']';
        ex.respond(json_body(200, std::move(out)));
      }
      co_return;
    }

    ex.start_stream(200, sse_headers());
    auto sink = std::make_shared<stream_sink>();
    sink->ex = &ex;
    sink_guard guard{sink};
    for (auto& it : items) {
      if (!it) {
        sink->send(error_json(it.id, it.error));
      } else if (it.msg->kind == message_kind::request) {
        auto r = co_await run_request(s, *it.msg, sink);
        if (r) sink->send(*r);
      }
    }
    ex.end_stream();
  }

  // A POST without Mcp-Session-Id: initialize starts a session; a 2026-07-28
  // server/discover probe gets a plain 400 so dual-era clients fall back to initialize;
  // anything else is a 400 telling the client to initialize first.
  void post_without_session(net::http_exchange& ex, const json::value& body) {
    if (body.is_array()) {
      for (const auto& v : body.get_array())
        if (v.is_object())
          if (const auto* m = json::get_string(v.get_object(), "method"); m && *m == "initialize") {
            ex.respond(transport_error(400, rpc_error::invalid_request("initialize must not be sent in a batch")));
            return;
          }
      ex.respond(transport_error(400, rpc_error::invalid_request("Bad Request: no Mcp-Session-Id header and not an initialize request")));
      return;
    }
    auto c = classify(body);
    if (!c) {
      ex.respond(json_body(400, error_json(c.id, c.error)));
      return;
    }
    const auto& m = *c.msg;
    if (m.method == "server/discover") {
      ex.respond(transport_error(400, "Bad Request: server/discover is not supported; this server speaks MCP " + supported_versions_text() +
                                          " with sessions: send initialize (without Mcp-Session-Id) first"));
      return;
    }
    if (m.kind != message_kind::request || m.method != "initialize") {
      ex.respond(transport_error(400, rpc_error::invalid_request("Bad Request: no Mcp-Session-Id header and not an initialize request "
                                                                 "(send initialize first to start a session)")));
      return;
    }
    auto init = parse_initialize(m.params);
    if (!init) {
      ex.respond(json_body(400, error_json(m.id, init.error)));
      return;
    }
    if (!table.admit_new_session()) {
      auto retry = table.retry_after_seconds();
      auto res = transport_error(429, "Too Many Requests: at most " + std::to_string(options.max_new_sessions_per_minute) +
                                          " new MCP sessions per minute; retry in " + std::to_string(retry) + " s");
      res.with_header("Retry-After", std::to_string(retry));
      ex.respond(std::move(res));
      log::warn(std::string(name()) + ": new session refused (rate limit)");
      return;
    }
    auto version = negotiate_version(init.value->protocol_version);
    auto live = std::make_shared<live_session>(exec, table.create(version));
    sessions.emplace(live->id, live);
    start_session_coroutine(live);
    auto result = initialize_result(options.gateway, version, options.server_version);
    auto res = json_body(200, response_json(m.id, result));
    res.with_header(std::string(session_header), live->id);
    ex.respond(std::move(res));
    log::info(std::string(name()) + " session " + short_id(live->id) + " started by \"" + init.value->client_name.substr(0, 64) +
              "\" (protocol " + version + ")");
  }

  void handle_notification(live_session& s, const message& m) {
    if (m.method == "notifications/initialized") {
      s.rec->initialized = true;
    } else if (m.method == "notifications/cancelled") {
      auto id = parse_cancelled(m.params);
      if (!id) return;  // malformed cancellations are ignored (spec)
      auto it = s.calls.find(id_key(*id));
      if (it == s.calls.end()) return;  // finished or unknown: a normal race
      it->second->cancelled = true;
      it->second->cancel->cancel();
    }
    // Other notifications (progress from the client, roots changes, ...) need nothing.
  }

  // ---- requests ---------------------------------------------------------------------

  // Answers one request; nullopt when it was cancelled (no response is sent then).  The one
  // place where an exception from any request becomes a JSON-RPC internal error: every
  // request ends with a result or an error, whatever threw.
  awaitable<std::optional<std::string>> run_request(std::shared_ptr<live_session> s, const message& m, std::shared_ptr<stream_sink> sink) {
    std::string failure;
    try {
      co_return co_await answer_request(std::move(s), m, std::move(sink));
    } catch (const std::exception& e) {
      failure = e.what();
    } catch (...) {
      failure = "an exception of unknown type";
    }
    log::error(std::string(name()) + ": " + m.method.substr(0, 64) + " failed unexpectedly: " + failure);
    co_return error_json(m.id, rpc_error::internal("the request failed unexpectedly; see the server log"));
  }

  awaitable<std::optional<std::string>> answer_request(std::shared_ptr<live_session> s, const message& m, std::shared_ptr<stream_sink> sink) {
    busy_guard busy(s->rec, table);
    const auto& method = m.method;
    if (method == "ping") co_return response_json(m.id, "{}");
    if (method == "tools/list") {
      auto p = parse_tools_list(m.params);
      if (!p) co_return error_json(m.id, p.error);
      co_return response_json(m.id, options.gateway ? gateway::tools_list_result() : catalog.tools_list_result());
    }
    if (method == "tools/call") co_return co_await call(s, m, std::move(sink));
    if (method == "logging/setLevel" && !options.gateway) {
      auto p = parse_set_level(m.params);
      if (!p) co_return error_json(m.id, p.error);
      s->rec->log.set(p.value->level);
      co_return response_json(m.id, "{}");
    }
    if (method == "initialize")
      co_return error_json(m.id, rpc_error::invalid_request("this session is already initialized; to start over, send initialize without Mcp-Session-Id"));
    co_return error_json(m.id, rpc_error::method_not_found(method));
  }

  awaitable<std::optional<std::string>> call(std::shared_ptr<live_session> s, const message& m, std::shared_ptr<stream_sink> sink) {
    auto p = parse_tools_call(m.params);
    if (!p) co_return error_json(m.id, p.error);
    auto& req = *p.value;
    const auto key = id_key(m.id);
    if (s->calls.count(key)) co_return error_json(m.id, rpc_error::invalid_request("request id " + json::dump(m.id) + " is already used by a call in flight"));

    auto c = std::make_shared<in_flight_call>();
    c->sink = sink;
    c->progress_token = req.progress_token;
    tools::call_options opts;
    opts.cancel = c->cancel;
    opts.origin = options.gateway ? "gateway" : "mcp";
    if (!c->progress_token.is_null()) {
      std::weak_ptr<in_flight_call> weak = c;
      opts.on_progress = [weak](const tools::progress_update& u) {
        if (auto call = weak.lock()) forward_progress(*call, u);
      };
    }

    std::string tool = std::move(req.name);
    json::object arguments = std::move(req.arguments);
    if (options.gateway) {
      if (tool == gateway::list_tools_tool) {
        auto filter = gateway::parse_list_arguments(arguments);
        if (!filter) co_return response_json(m.id, tools::call_result::text(filter.err().message, true, 422).to_json());
        auto listing = catalog.gateway_listing(*filter ? std::optional<std::string_view>(**filter) : std::nullopt);
        if (!listing) {
          std::string names;
          for (const auto& n : catalog.plugin_names()) names += (names.empty() ? "" : ", ") + n;
          co_return response_json(m.id, tools::call_result::text("Plugin \"" + **filter + "\" not found. Available plugins: " + names, true, 404).to_json());
        }
        co_return response_json(m.id, tools::call_result::text(std::move(*listing)).to_json());
      }
      if (tool != gateway::call_tool)
        co_return error_json(m.id, rpc_error::invalid_params_text("Unknown gateway tool: " + tool.substr(0, 200) + " (this endpoint offers " +
                                                                  std::string(gateway::list_tools_tool) + " and " + std::string(gateway::call_tool) + ")"));
      auto target = gateway::parse_call_arguments(arguments);
      if (!target) co_return response_json(m.id, tools::call_result::text(target.err().message, true, 422).to_json());
      tool = std::move(target->tool);
      arguments = std::move(target->arguments);
    }
    c->plugin = std::string(catalog.plugin_of(tool));

    s->calls.emplace(key, c);
    tools::call_result result;
    {
      struct erase_on_exit {
        live_session& s;
        const std::string& key;
        const std::shared_ptr<in_flight_call>& c;
        ~erase_on_exit() {
          auto it = s.calls.find(key);
          if (it != s.calls.end() && it->second == c) s.calls.erase(it);
        }
      } erase{*s, key, c};
      auto call = service.call_tool(tool, std::move(arguments), std::move(opts));
      if (sink) {
        // Both branches report failure as a value (net/caught.hpp): a pipeline that throws
        // must end the race, not leave the keep-alive loop running forever.
        auto outcome = co_await (net::caught(std::move(call)) || net::caught(call_keepalive(sink)));
        if (outcome.index() == 0) {
          result = std::get<0>(outcome).take();
        } else if (auto failure = std::get<1>(outcome)) {
          std::rethrow_exception(failure);  // the keep-alive loop itself failed
        }
      } else {
        result = co_await std::move(call);
      }
    }
    if (c->cancelled) co_return std::nullopt;
    // An unknown tool is a protocol error in MCP (-32602); through the gateway it is the
    // meta-tool's result, since opentabs_call itself exists.
    if (result.http_status == 404 && !options.gateway) co_return error_json(m.id, rpc_error::invalid_params_text(first_text(result)));
    co_return response_json(m.id, result.to_json());
  }

  static void forward_progress(in_flight_call& c, const tools::progress_update& u) {
    if (c.cancelled || !c.sink) return;
    // Progress must strictly increase (MCP); a report that does not is dropped.
    if (c.last_progress && u.progress <= *c.last_progress) return;
    c.last_progress = u.progress;
    json::object params{{"progressToken", c.progress_token}, {"progress", number_value(u.progress)}};
    if (u.total) params["total"] = number_value(*u.total);
    if (!u.message.empty()) params["message"] = json::str(u.message);
    c.sink->send(notification_json("notifications/progress", params));
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

net::awaitable<void> endpoint::handle(net::http_exchange& ex) {
  auto st = impl_->st;
  co_await st->handle(ex);
}

std::size_t endpoint::session_count() const { return impl_->st->table.size(); }

void endpoint::shutdown() { impl_->st->shutdown(); }

}  // namespace opentabs::mcp
