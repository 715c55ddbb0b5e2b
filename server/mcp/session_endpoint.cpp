// One 2025-11-25 session's POST, GET and DELETE (see session_endpoint.hpp).
#include "mcp/session_endpoint.hpp"

#include <exception>
#include <functional>
#include <vector>

#include "codec/gzip.hpp"
#include "mcp/prompt_requests.hpp"
#include "mcp/protocol_version.hpp"
#include "mcp/requests.hpp"
#include "mcp/server_info.hpp"
#include "net/event.hpp"
#include "util/log.hpp"
#include "util/strings.hpp"

namespace opentabs::mcp {

using namespace opentabs::jsonrpc;
using net::awaitable;

namespace {

std::string short_id(std::string_view id) { return std::string(id.substr(0, 8)); }

}  // namespace

session_endpoint::session_endpoint(asio::any_io_executor ex, tools::tool_service& service, tool_catalog& catalog, call_runner& calls,
                                   net::task_group& group, settings s)
    : exec_(std::move(ex)), catalog_(catalog), calls_(calls), settings_(std::move(s)),
      sessions_(exec_, group, settings_.session_idle_expiry, settings_.max_new_sessions_per_minute, std::string(name()), &service),
      table_(sessions_.table()),
      methods_(make_request_methods(settings_.gateway, catalog, [this](request_context ctx) {
        return calls_.call(std::move(ctx.session), ctx.msg, std::move(ctx.sink), nullptr);
      }, settings_.prompts)) {
  if (!settings_.gateway) add_resource_methods(methods_, settings_.resources);
}

// The session a GET/DELETE/POST names, or the response refusing the request.
std::variant<std::shared_ptr<live_session>, net::http_response> session_endpoint::find_session(const codec::http_request& req) {
  auto sid = trim(req.header(session_header));
  if (sid.empty())
    return transport_error(400, rpc_error::invalid_request("Bad Request: Mcp-Session-Id header is required (send initialize first to start a session)"));
  auto s = sessions_.find(sid);
  if (!s)
    return transport_error(404, rpc_error{rpc_code::session_not_found, "Session not found: it expired or was deleted; start a new session with initialize", nullptr});
  auto version = effective_version(req.header(version_header), s->rec->protocol_version);
  if (!version) return transport_error(400, version.err().message);
  return s;
}

// A request naming a session that is gone gets 404 before its Accept header is judged:
// the client's next step is a new initialize, not a new header.
std::optional<net::http_response> session_endpoint::stale_session_refusal(const codec::http_request& req) {
  auto sid = trim(req.header(session_header));
  if (sid.empty() || sessions_.find(sid)) return std::nullopt;
  return std::get<net::http_response>(find_session(req));
}

// DELETE: the session it names ends.
net::http_response session_endpoint::del(const codec::http_request& req) {
  auto found = find_session(req);
  if (auto* refusal = std::get_if<net::http_response>(&found)) return std::move(*refusal);
  sessions_.end(std::get<std::shared_ptr<live_session>>(found), "deleted by the client");
  return net::http_response::empty(200);
}

// GET: the session's standalone stream (list_changed, plugin logs), held until the session
// ends or the client goes.
awaitable<request_answer> session_endpoint::get(net::http_exchange& ex) {
  if (auto stale = stale_session_refusal(ex.request())) co_return answer_with(std::move(*stale));
  if (!accepts(ex.request().header("Accept"), "text/event-stream"))
    co_return answer_with(transport_error(406, "Not Acceptable: the standalone stream needs Accept: text/event-stream"));
  auto found = find_session(ex.request());
  if (auto* refusal = std::get_if<net::http_response>(&found)) co_return answer_with(std::move(*refusal));
  auto s = std::get<std::shared_ptr<live_session>>(std::move(found));
  // One standalone stream per session: a new GET takes over from an older one (which
  // may belong to a connection that died unnoticed; see hold_standalone_stream).
  if (auto old = s->standalone) old->end_soon();
  // The server may end this stream at any time (the session ends, a newer GET takes over)
  // and then closes the connection; its head says so, so no client reuses the connection
  // for its next request and finds it closed under that request.
  ex.close_after();
  ex.start_stream(200, sse_headers());
  auto sink = std::make_shared<stream_sink>();
  sink->ex = &ex;
  sink->wake = std::make_unique<net::event>(exec_);
  sink_guard guard{sink};
  s->standalone = sink;
  busy_guard busy(s->rec, table_);
  if (s->list_changed_pending) {
    s->list_changed_pending = false;
    sink->send(notification_json("notifications/tools/list_changed"));
  }
  // Built before the co_await, not as its temporaries (GCC 12 destroys some of those
  // twice; a std::function holding the session would drop it too often).
  std::function<bool()> session_ended = [s] { return s->ended; };
  auto hold = hold_standalone_stream(sink, settings_.sse_keepalive_interval, std::move(session_ended));
  co_await std::move(hold);
  if (s->standalone == sink) s->standalone.reset();
  ex.end_stream();
  co_return already_answered();
}

// A POST of a session's revision: initialize without a session, else the session's messages.
awaitable<request_answer> session_endpoint::post(net::http_exchange& ex, const json::value& body, std::shared_ptr<void> owner) {
  const auto& req = ex.request();
  if (trim(req.header(session_header)).empty()) co_return answer_with(answer_without_session(body, std::move(owner)));
  auto found = find_session(req);
  if (auto* refusal = std::get_if<net::http_response>(&found)) co_return answer_with(std::move(*refusal));
  auto s = std::get<std::shared_ptr<live_session>>(std::move(found));
  table_.touch(*s->rec);
  auto posted = read_post_messages(body, s->rec->protocol_version, settings_.max_batch_messages);
  if (posted.refusal) co_return answer_with(std::move(*posted.refusal));
  auto answer = post_in_session(ex, s, body, posted);
  co_return co_await std::move(answer);
}

// The messages of one POST to a session: notifications and client responses take effect
// at once; requests are answered — in one JSON response, or over SSE when a tools/call
// is among them (it may report progress and ask questions before its result).
awaitable<request_answer> session_endpoint::post_in_session(net::http_exchange& ex, const std::shared_ptr<live_session>& s,
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
    if (it.msg->method == "tools/call" || (settings_.prompts && settings_.prompts->streams(*it.msg))) stream = true;
  }
  // An answer to a question decided elsewhere first changed nothing: the client is told so
  // (409 with a JSON-RPC error without id, as Streamable HTTP allows for input it cannot
  // take) instead of a 202 that reads as "done".
  if (!any_request && !not_used.empty()) co_return answer_with(transport_error(409, "Conflict: " + not_used));
  if (!any_request) co_return answer_with(net::http_response::empty(202));
  if (!stream && !posted.batch && items.size() == 1 && items[0] && answers_from_cached_listing(settings_.gateway, *items[0].msg)) {
    busy_guard busy(s->rec, table_);
    co_return cached_listing_answer(ex.request(), items[0].msg->id);
  }
  if (!stream) {
    auto answer = answer_in_one_response(s, posted);
    co_return co_await std::move(answer);
  }
  auto streamed = answer_in_stream(ex, s, posted);
  co_await std::move(streamed);
  co_return already_answered();
}

// tools/list alone: to a client that takes gzip, the catalog's listing compressed once
// per generation (megabytes of JSON are tens of KiB); to others, the cached listing
// itself, queued behind the response's head instead of copied into each response.
request_answer session_endpoint::cached_listing_answer(const codec::http_request& req, const json::value& id) {
  std::optional<std::string> gz;
  if (codec::accepts_gzip(req.header("Accept-Encoding"))) {
    try {
      gz = catalog_.tools_list_gzip(id);
    } catch (const std::exception& e) {
      log::error(std::string(name()) + ": compressing tools/list failed (" + e.what() + "); answering uncompressed");
    }
  }
  if (gz) return answer_with(gzip_json_response(200, std::move(*gz)));
  auto split = catalog_.tools_list_response(id);
  return request_answer{json_response(200, std::move(split.before)), std::move(split.listing), std::move(split.after)};
}

awaitable<request_answer> session_endpoint::answer_in_one_response(const std::shared_ptr<live_session>& s, const post_messages& posted) {
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

awaitable<void> session_endpoint::answer_in_stream(net::http_exchange& ex, const std::shared_ptr<live_session>& s, const post_messages& posted) {
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
net::http_response session_endpoint::answer_without_session(const json::value& body, std::shared_ptr<void> owner) {
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
  if (!table_.admit_new_session()) {
    auto retry = table_.retry_after_seconds();
    auto res = transport_error(429, "Too Many Requests: at most " + std::to_string(settings_.max_new_sessions_per_minute) +
                                        " new MCP sessions per minute; retry in " + std::to_string(retry) + " s");
    res.with_header("Retry-After", std::to_string(retry));
    log::warn(std::string(name()) + ": new session refused (rate limit)");
    return res;
  }
  auto version = negotiate_version(init.value->protocol_version);
  auto live = sessions_.start(version, std::move(owner));
  live->rec->client_elicits_form = init.value->can_elicit_form;
  live->rec->client_samples = init.value->can_sample;
  live->rec->client_name = init.value->client_name.substr(0, 64);
  auto result = initialize_result(settings_.gateway, version, settings_.server_version, settings_.prompts && settings_.prompts->offered());
  auto res = json_response(200, response_json(m.id, result));
  res.with_header(std::string(session_header), live->id);
  log::info(std::string(name()) + " session " + short_id(live->id) + " started by \"" + init.value->client_name.substr(0, 64) +
            "\" (protocol " + version + ")");
  return res;
}

// Answers one request of a session through the method table.
awaitable<std::optional<std::string>> session_endpoint::run_request(std::shared_ptr<live_session> s, const message& m, std::shared_ptr<stream_sink> sink) {
  busy_guard busy(s->rec, table_);
  const auto* method = methods_.find(m.method, true);
  if (!method) co_return error_json(m.id, rpc_error::method_not_found(m.method));
  // Named, not temporaries inside the co_await: GCC 12 destroys some temporaries of a
  // co_await expression twice, which would drop a reference to the session too many.
  request_context ctx{std::move(s), m, std::move(sink)};
  auto answer = calls_.guarded(m, [&] { return method->handler(std::move(ctx)); });
  co_return co_await std::move(answer);
}

}  // namespace opentabs::mcp
