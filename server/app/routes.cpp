#include "app/routes.hpp"

#include "app/http_security.hpp"
#include "app/payloads.hpp"
#include "audit/audit_query.hpp"
#include "codec/http_request.hpp"
#include "codec/ws_codec.hpp"
#include "util/log.hpp"
#include "util/peer_proof.hpp"

namespace opentabs::app {

namespace {

using net::http_response;

http_response unauthorized() {
  auto r = http_response::error(401, "unauthorized", "Missing or invalid bearer token");
  r.with_header("WWW-Authenticate", "Bearer");
  return r;
}

http_response too_many() {
  auto r = http_response::error(429, "rate_limited", "Too many requests; try again later");
  r.with_header("Retry-After", "60");
  return r;
}

// Answers 405 and returns true unless the request uses `allow`.
bool wrong_method(net::http_exchange& ex, const char* allow) {
  if (ex.request().method == allow) return false;
  auto r = http_response::error(405, "method_not_allowed", std::string("Allowed: ") + allow);
  r.with_header("Allow", allow);
  ex.respond(std::move(r));
  return true;
}

std::optional<std::string_view> param(const codec::http_request& req, std::string_view name, std::string& storage) {
  if (!req.has_query_param(name)) return std::nullopt;
  storage = req.query_param(name);
  return std::string_view(storage);
}

}  // namespace

router::router(const server_state& state, extension_hub& hub, tool_pipeline& pipeline, reload_pipeline& reload,
               plugin_settings& settings, mcp::endpoint& mcp, mcp::endpoint& gateway, route_options options)
    : state_(state),
      hub_(hub),
      pipeline_(pipeline),
      reload_(reload),
      settings_(settings),
      mcp_(mcp),
      gateway_(gateway),
      options_(options) {}

net::head_verdict router::screen(const codec::http_request& head) const {
  net::head_verdict v;
  if (!host_allowed(head.header("Host"))) {
    v.refusal = http_response::error(403, "forbidden", "Forbidden: invalid Host header");
    return v;
  }
  const std::string& path = head.path;
  bool is_mcp = path == "/mcp" || path == "/mcp/gateway";
  const auto origin = head.header("Origin");
  if (!origin_allowed(origin, head.has_header("Origin")) && !(is_mcp && is_own_loopback_origin(origin, port_))) {
    v.refusal = http_response::error(403, "forbidden", "Forbidden: browser requests are not allowed");
    return v;
  }
  if (path == "/ws") {
    // The WebSocket credential travels in Sec-WebSocket-Protocol, never as a bearer token.
    auto ws = check_ws_subprotocols(codec::offered_subprotocols(head), state_.config.secret, proof_check());
    if (!ws.authorized) {
      // The browser only shows a failed handshake; a real 401 on the raw socket tells
      // other clients what went wrong.
      auto r = http_response::error(401, "unauthorized", "Unauthorized");
      r.with_header("WWW-Authenticate", "Bearer");
      v.refusal = std::move(r);
      v.close_after_refusal = true;
    } else {
      v.authenticated = true;
      v.caller = std::move(ws.caller);
    }
    return v;
  }
  v.authenticated = authorization_matches(head.header("Authorization"));
  if (v.authenticated) v.caller = peer_proof::caller_identity(head.header("Authorization"));
  // Minimal without the secret (spec §6.5); the challenge is how a client checks the server
  // before it sends any credential.
  if (path == "/health" || path == peer_proof::kChallengePath) return v;
  if (path.rfind("/.well-known/", 0) == 0) {
    v.refusal = http_response::error(404, "not_found", "This server does not implement OAuth 2.0");
    return v;
  }
  if (!v.authenticated && !(is_mcp && options_.conformance_mode)) {
    bool known = is_mcp || path == "/tools" || path.rfind("/tools/", 0) == 0 || path == "/ws-info" ||
                 path == "/audit" || path == "/reload" || path == "/extension/reload" || path == "/plugin-settings";
    v.refusal = known ? unauthorized() : http_response::error(404, "not_found", "Not Found");
  }
  return v;
}

net::awaitable<void> router::handle(net::http_exchange& ex) {
  // The server screened the head with screen() before reading the body and admitted it;
  // an exchange that did not come through net::http_server gets the same screen here, so
  // every refusal is still decided in one function.
  if (const auto& authenticated = ex.screened_authenticated()) {
    co_await route(ex, *authenticated);
    co_return;
  }
  auto verdict = screen(ex.request());
  if (verdict.refusal) {
    if (verdict.close_after_refusal) ex.close_after();
    ex.respond(std::move(*verdict.refusal));
    co_return;
  }
  co_await route(ex, verdict.authenticated);
}

bool router::rate_limited(net::http_exchange& ex, rate_limiter& limiter) {
  if (limiter.try_acquire(rate_limiter::clock::now())) return false;
  ex.respond(too_many());
  return true;
}

// The routes by path, like the MCP and extension method tables: each row names the method
// it allows (null: the handler decides), the rate limit it spends from (null: none) and its
// handler.  A `{name}` in a path matches one non-empty piece, handed to the handler.
struct route_table {
  struct request {
    net::http_exchange& ex;
    bool authenticated;
    std::string_view name;  // the {name} piece of the path, if it has one
  };
  using handler = net::awaitable<void> (*)(router&, request);
  struct row {
    std::string_view path;
    const char* method;
    rate_limiter router::*limit;
    handler handle;
  };

  static net::awaitable<void> ws(router& r, request q);
  static net::awaitable<void> health(router& r, request q);
  static net::awaitable<void> challenge(router& r, request q);
  static net::awaitable<void> mcp(router& r, request q);
  static net::awaitable<void> gateway(router& r, request q);
  static net::awaitable<void> tools(router& r, request q);
  static net::awaitable<void> tool_call(router& r, request q);
  static net::awaitable<void> ws_info(router& r, request q);
  static net::awaitable<void> audit(router& r, request q);
  static net::awaitable<void> reload(router& r, request q);
  static net::awaitable<void> extension_reload(router& r, request q);
  static net::awaitable<void> plugin_settings(router& r, request q);

  static constexpr row rows[] = {
      {"/ws", nullptr, nullptr, &ws},
      {"/health", "GET", nullptr, &health},
      {peer_proof::kChallengePath, "GET", nullptr, &challenge},
      {"/mcp", nullptr, nullptr, &mcp},
      {"/mcp/gateway", nullptr, nullptr, &gateway},
      {"/tools", "GET", nullptr, &tools},
      {"/tools/{name}/call", "POST", &router::tool_calls_, &tool_call},
      {"/ws-info", nullptr, nullptr, &ws_info},
      {"/audit", "GET", nullptr, &audit},
      {"/reload", "POST", &router::reloads_, &reload},
      {"/extension/reload", "POST", &router::extension_reloads_, &extension_reload},
      {"/plugin-settings", "POST", &router::plugin_settings_, &plugin_settings},
  };

  // The row for `path` and the {name} piece it matched, or null.
  static const row* find(std::string_view path, std::string_view& name);
};

namespace {

// Whether `path` has the shape of `pattern`; a `{name}` piece goes to `name`.
bool path_matches(std::string_view pattern, std::string_view path, std::string_view& name) {
  const auto open = pattern.find('{');
  if (open == std::string_view::npos) return pattern == path;
  const auto prefix = pattern.substr(0, open);
  const auto suffix = pattern.substr(pattern.find('}', open) + 1);
  if (path.size() <= prefix.size() + suffix.size() || !path.starts_with(prefix) || !path.ends_with(suffix)) return false;
  name = path.substr(prefix.size(), path.size() - prefix.size() - suffix.size());
  return true;
}

}  // namespace

const route_table::row* route_table::find(std::string_view path, std::string_view& name) {
  for (const auto& r : rows)
    if (path_matches(r.path, path, name)) return &r;
  return nullptr;
}

net::awaitable<void> router::route(net::http_exchange& ex, bool authed) {
  std::string_view name;
  const auto* row = route_table::find(ex.request().path, name);
  if (!row) {
    ex.respond(http_response::error(404, "not_found", "Not Found"));
    co_return;
  }
  if (row->method && wrong_method(ex, row->method)) co_return;
  if (row->limit && rate_limited(ex, this->*(row->limit))) co_return;
  co_await row->handle(*this, route_table::request{ex, authed, name});
}

net::awaitable<void> route_table::ws(router& r, request q) {
  auto creds = check_ws_subprotocols(codec::offered_subprotocols(q.ex.request()), r.state_.config.secret, r.proof_check());
  if (!codec::is_websocket_upgrade(q.ex.request())) {
    q.ex.respond(http_response::error(426, "upgrade_required", "WebSocket upgrade required"));
    co_return;
  }
  co_await r.hub_.serve(q.ex, creds.connection_id);
}

net::awaitable<void> route_table::health(router& r, request q) {
  r.health(q.ex, q.authenticated);
  co_return;
}

net::awaitable<void> route_table::challenge(router& r, request q) {
  r.answer_challenge(q.ex);
  co_return;
}

net::awaitable<void> route_table::mcp(router& r, request q) { co_await r.mcp_.handle(q.ex); }

net::awaitable<void> route_table::gateway(router& r, request q) { co_await r.gateway_.handle(q.ex); }

net::awaitable<void> route_table::tools(router& r, request q) {
  r.list_tools(q.ex);
  co_return;
}

net::awaitable<void> route_table::tool_call(router& r, request q) {
  co_await r.call_tool(q.ex, codec::percent_decode(q.name));
}

net::awaitable<void> route_table::ws_info(router&, request q) {
  auto host = std::string(q.ex.request().header("Host"));
  q.ex.respond(http_response::json(200, json::object{{"wsUrl", json::str("ws://" + host + "/ws")}}));
  co_return;
}

net::awaitable<void> route_table::audit(router& r, request q) {
  r.audit(q.ex);
  co_return;
}

net::awaitable<void> route_table::reload(router& r, request q) {
  auto outcome = co_await r.reload_.reload_coalesced();
  if (outcome.ok)
    q.ex.respond(http_response::json(
        200, json::object{{"ok", true}, {"plugins", outcome.plugins}, {"durationMs", outcome.duration_ms}}));
  else
    q.ex.respond(http_response::json(500, json::object{{"ok", false}, {"error", json::str(outcome.error)}}));
}

net::awaitable<void> route_table::extension_reload(router& r, request q) {
  if (!r.hub_.connected()) {
    q.ex.respond(http_response::json(503, json::object{{"ok", false}, {"error", "Extension not connected"}}));
    co_return;
  }
  r.hub_.broadcast(json::object{{"jsonrpc", "2.0"}, {"method", "extension.reload"}});
  q.ex.respond(http_response::json(200, json::object{{"ok", true}, {"message", "Reload signal sent to extension"}}));
}

net::awaitable<void> route_table::plugin_settings(router& r, request q) {
  auto body = json::parse_object(q.ex.request().body);
  const json::object* settings = body ? json::get_object(*body, "settings") : nullptr;
  const auto* plugin = body ? json::get_string(*body, "plugin") : nullptr;
  if (!plugin || !settings) {
    q.ex.respond(http_response::json(
        400, json::object{{"ok", false}, {"error", body ? "Body must be {\"plugin\": string, \"settings\": object}"
                                                        : json::str("Invalid JSON body: " + body.err().message)}}));
    co_return;
  }
  auto problem = r.settings_.store(std::string(*plugin), *settings);
  if (!problem.empty()) {
    q.ex.respond(http_response::json(400, json::object{{"ok", false}, {"error", json::str(problem)}}));
    co_return;
  }
  // 200 means the settings are in config.json; 202, that they apply now and are written
  // once another program releases the lock.
  const auto saved = co_await r.reload_.wait_until_saved(r.reload_.save_ticket());
  if (saved == reload_pipeline::save_state::saved)
    q.ex.respond(http_response::json(200, json::object{{"ok", true}}));
  else if (saved == reload_pipeline::save_state::waiting)
    q.ex.respond(http_response::json(
        202, json::object{{"ok", true}, {"saved", false}, {"message", json::str(r.reload_.unsaved_message(saved))}}));
  else
    q.ex.respond(http_response::json(500, json::object{{"ok", false}, {"error", json::str(r.reload_.unsaved_message(saved))}}));
}

bool router::authorization_matches(std::string_view header) const {
  if (auto token = peer_proof::token_from_authorization(header))
    return peer_auth_.accepts(*token, state_.config.secret, peer_auth::clock::now());
  return bearer_matches(header, state_.config.secret);
}

std::function<bool(std::string_view)> router::proof_check() const {
  return [this](std::string_view token) { return peer_auth_.accepts(token, state_.config.secret, peer_auth::clock::now()); };
}

void router::answer_challenge(net::http_exchange& ex) {
  const auto& req = ex.request();
  auto answer = peer_auth_.challenge(req.query_param("clientNonce"), req.header(peer_proof::kChallengeTagHeader),
                                     state_.config.secret, peer_auth::clock::now());
  if (!answer) {
    if (answer.err().kind == errc::denied) ex.respond(unauthorized());
    else ex.respond(http_response::error(400, "invalid_request", answer.err().message));
    return;
  }
  ex.respond(http_response::json(200, json::object{{"protocol", "opentabs-proof-1"},
                                                   {"serverNonce", json::str(answer->server_nonce)},
                                                   {"serverProof", json::str(answer->server_proof)}}));
}

void router::health(net::http_exchange& ex, bool authenticated) {
  http_response r = http_response::json(200, json::object{{"status", "ok"}});
  if (authenticated) {
    auto in_use = mcp_.client_activity();
    in_use += gateway_.client_activity();
    r = http_response::json(200, health_payload(state_, hub_, mcp_.session_count(), in_use));
  }
  r.with_header("x-opentabs-version", OPENTABS_VERSION);
  ex.respond(std::move(r));
}

void router::list_tools(net::http_exchange& ex) {
  std::string filter = ex.request().query_param("plugin");
  json::array out;
  for (auto& t : pipeline_.list_tools()) {
    if (!filter.empty() && t.plugin != filter) continue;
    out.push_back(json::object{{"name", json::str(t.name)},
                               {"description", json::str(t.description)},
                               {"inputSchema", std::move(t.input_schema)},
                               {"plugin", json::str(t.plugin)}});
  }
  ex.respond(http_response::json(200, out));
}

net::awaitable<void> router::call_tool(net::http_exchange& ex, std::string name) {
  json::object args;
  const auto& body = ex.request().body;
  if (!body.empty()) {
    auto parsed = json::parse_object(body);
    if (!parsed) {
      ex.respond(http_response::json(400, json::object{{"content", json::array{json::object{
                                                           {"type", "text"},
                                                           {"text", json::str("Invalid JSON body: " + parsed.err().message)}}}},
                                                       {"isError", true}}));
      co_return;
    }
    if (const auto* a = json::get_object(*parsed, "arguments")) args = *a;
    else if (parsed->contains("arguments")) {
      ex.respond(http_response::json(400, json::object{{"content", json::array{json::object{
                                                           {"type", "text"}, {"text", "\"arguments\" must be an object"}}}},
                                                       {"isError", true}}));
      co_return;
    }
  }
  tools::call_options opts;
  opts.origin = "rest";
  opts.caller = "rest";  // the CLI and scripts holding the secret: one caller
  auto result = co_await pipeline_.call_tool(std::move(name), std::move(args), std::move(opts));
  auto res = http_response::json(result.failure ? net::http_status_for(*result.failure) : 200, result.to_json());
  // 429 here is the per-plugin concurrency cap: a slot frees as soon as a call finishes.
  if (result.failure == errc::rate_limited) res.with_header("Retry-After", "1");
  ex.respond(std::move(res));
}

void router::audit(net::http_exchange& ex) {
  const auto& req = ex.request();
  std::string a, b, c, d;
  auto q = audit::parse_audit_query(param(req, "limit", a), param(req, "plugin", b), param(req, "tool", c),
                                    param(req, "success", d));
  if (!q) {
    ex.respond(http_response::error(400, "invalid_query", q.err().message));
    return;
  }
  json::array out;
  for (const auto& e : state_.audit.query(*q)) out.push_back(audit::to_json(e));
  ex.respond(http_response::json(200, out));
}

}  // namespace opentabs::app
