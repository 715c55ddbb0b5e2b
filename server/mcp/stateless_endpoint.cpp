// One 2026-07-28 POST from body to answer, and the subscriptions/listen streams (see
// stateless_endpoint.hpp).
#include "mcp/stateless_endpoint.hpp"

#include <algorithm>
#include <functional>

#include "mcp/gateway_tools.hpp"
#include "mcp/protocol_version.hpp"
#include "mcp/requests.hpp"
#include "mcp/resource_requests.hpp"
#include "mcp/server_info.hpp"
#include "mcp/task_store.hpp"
#include "net/event.hpp"
#include "util/peer_proof.hpp"
#include "util/strings.hpp"

namespace opentabs::mcp {

using namespace opentabs::jsonrpc;
using net::awaitable;

// A subscriptions/listen stream open now.
struct stateless_endpoint::listener {
  std::shared_ptr<stream_sink> sink;
  json::value subscription_id;  // the listen request's id
  bool tools_list_changed = false;
  bool resources_list_changed = false;
  resource_subscriptions resources;  // resourceSubscriptions
  std::string client;  // client_context::identity() of the listen request
};

namespace {

modern_headers headers_of(const codec::http_request& req) {
  auto present = [&req](std::string_view name) -> std::optional<std::string_view> {
    if (!req.has_header(name)) return std::nullopt;
    return req.header(name);
  };
  return modern_headers{true, present(version_header), present(method_header), present(name_header)};
}

// A tool the client cannot use as it declared itself: one that needs a client capability
// it did not declare, or one answered only as a task to a client without the extension.
std::optional<rpc_error> refuse_undeclared(std::string_view tool, const tools::call_traits& traits, const client_context& client) {
  const std::string shown = quote_for_error(tool, 64);
  if (!traits.requires_client_capability.empty() && !client.declares(traits.requires_client_capability))
    return missing_capability_error(traits.requires_client_capability, "tool " + shown + " needs it; declare it in _meta to call the tool");
  if (traits.tasks == tools::task_support::required && !client.declares_extension(tasks_extension))
    return missing_extension_error(tasks_extension, "is needed: tool " + shown + " is only answered as a task");
  return std::nullopt;
}

// The refusal of a single message that is no request, or nullopt for a request.
std::optional<request_answer> answer_non_request(const classified& c) {
  if (!c) return answer_with(json_response(400, error_json(c.id, c.error)));
  // Over HTTP a client cancels by closing the request's stream; notifications need nothing.
  if (c.msg->kind == message_kind::notification) return answer_with(net::http_response::empty(202));
  if (c.msg->kind == message_kind::response)
    return answer_with(transport_error(400, rpc_error::invalid_request("a " + std::string(modern_protocol_version) +
                                                                       " client sends no responses (input goes in inputResponses of a retried request)")));
  return std::nullopt;
}

// A resources/* request on behalf of a 2026-07-28 client: its tab group and its own
// budget, like its tools/call (call_runner::call_options_for).
tools::call_options resource_call_options(const client_context& client) {
  tools::call_options options;
  options.origin = "mcp";
  options.client = client.client_name;
  options.caller = "mcp " + client.identity();
  return options;
}

}  // namespace

stateless_endpoint::stateless_endpoint(asio::any_io_executor ex, tools::tool_service& service, tool_catalog& catalog, call_runner& calls,
                                       task_runner& tasks, settings s)
    : exec_(std::move(ex)), service_(service), catalog_(catalog), calls_(calls), tasks_(tasks), settings_(std::move(s)) {}

void stateless_endpoint::announce_tools_changed() {
  for (const auto& l : listeners_)
    if (l->tools_list_changed) l->sink->send(listen_notification("notifications/tools/list_changed", l->subscription_id, json::object{}));
}

void stateless_endpoint::announce_resources_changed(const tools::resource_change& change) {
  for (const auto& l : listeners_) {
    if (change.list_changed && l->resources_list_changed)
      l->sink->send(listen_notification("notifications/resources/list_changed", l->subscription_id, json::object{}));
    for (const auto& uri : change.updated)
      if (l->resources.has(uri))
        l->sink->send(listen_notification("notifications/resources/updated", l->subscription_id, json::object{{"uri", json::str(uri)}}));
  }
}

void stateless_endpoint::shutdown() {
  shut_ = true;
  for (const auto& l : listeners_) l->sink->end_soon();
}

awaitable<request_answer> stateless_endpoint::post(net::http_exchange& ex, const json::value& body, std::shared_ptr<const void> owner) {
  if (!body.is_object())
    co_return answer_with(transport_error(400, rpc_error::invalid_request("a " + std::string(modern_protocol_version) +
                                                                          " POST carries exactly one JSON-RPC message (no batches)")));
  auto c = classify(body);
  if (auto refused = answer_non_request(c)) co_return std::move(*refused);
  const auto& m = *c.msg;
  auto admitted = admit_modern(m, headers_of(ex.request()), ex.request().body.size());
  if (!admitted) co_return answer_with(json_response(admitted.refused.http_status, error_json(m.id, admitted.refused.error)));
  // The part of the client's identity it cannot choose: its credential (tasks and listen
  // streams are keyed by both, client_context::identity).
  admitted.client->caller = peer_proof::caller_identity(ex.request().header("Authorization"));
  const auto& client = *admitted.client;
  clients_.heard_from(client.client_name);
  if (m.method == "server/discover")
    co_return answer_with(json_response(200, response_json(m.id, discover_result(settings_.gateway, settings_.server_version,
                                                                                 settings_.prompts && settings_.prompts->offered()))));
  if (m.method == "tools/list") co_return tools_list(m);
  if (m.method == "tools/call") {
    // Named, not temporaries inside the co_await (GCC 12 destroys some of those twice).
    auto call = tools_call(ex, body, m, client, std::move(owner));
    co_return co_await std::move(call);
  }
  if (settings_.prompts && settings_.prompts->offered()) {
    if (m.method == "prompts/list") co_return answer_with(json_response(200, settings_.prompts->list(m, true)));
    if (m.method == "prompts/get" || m.method == "completion/complete") {
      auto answer = m.method == "prompts/get" ? settings_.prompts->get(m, nullptr, nullptr, &client) : settings_.prompts->complete(m, true);
      auto response = co_await std::move(answer);
      co_return answer_with(json_response(200, std::move(response)));
    }
  }
  if (m.method == "subscriptions/listen") {
    auto stream = listen(ex, m, client);
    co_return co_await std::move(stream);
  }
  if (!settings_.gateway && is_resource_method(m.method, true)) {
    auto answer = answer_resource_request(settings_.resources, m, resource_call_options(client), true);
    auto response = co_await std::move(answer);
    co_return answer_with(json_response(200, std::move(response)));
  }
  if (m.method == "tasks/get" || m.method == "tasks/update" || m.method == "tasks/cancel") {
    auto answer = tasks_.request(m, client);
    co_return answer_with(json_response(answer.http_status, std::move(answer.body)));
  }
  auto refused = method_not_found(m.method);
  co_return answer_with(json_response(refused.http_status, error_json(m.id, refused.error)));
}

// The listing with its cache fields; the catalog's shared listing is queued behind the head.
request_answer stateless_endpoint::tools_list(const message& m) {
  auto p = parse_tools_list(m.params());
  if (!p) return answer_with(json_response(200, error_json(m.id, p.error)));
  if (settings_.gateway)
    return answer_with(json_response(200, response_json(m.id, with_leading_fields(gateway::tools_list_result(),
                                                                                  cacheable_fields(tool_catalog::tools_list_ttl_ms, "private")))));
  auto split = catalog_.cacheable_tools_list_response(m.id);
  return request_answer{json_response(200, std::move(split.before)), std::move(split.listing), std::move(split.after)};
}

// A tools/call: its headers must repeat the params; a tool the client cannot use as it
// declared itself is refused; the call runs as a task when the client takes them, else on
// an SSE stream.
awaitable<request_answer> stateless_endpoint::tools_call(net::http_exchange& ex, const json::value& body, const message& m,
                                                      const client_context& client, std::shared_ptr<const void> owner) {
  if (auto refused = check_param_headers(ex.request(), m))
    co_return answer_with(json_response(refused->http_status, error_json(m.id, refused->error)));
  const auto* named = json::get_string(m.params(), "name");
  // The gateway's opentabs_call may reach any tool: it runs with the default traits.
  const auto traits = named && !settings_.gateway ? service_.traits_of(*named) : tools::call_traits{};
  if (auto refused = refuse_undeclared(named ? std::string_view(*named) : std::string_view(), traits, client))
    co_return answer_with(json_response(400, error_json(m.id, *refused)));
  if (client.declares_extension(tasks_extension) && traits.tasks != tools::task_support::forbidden) {
    auto answer = tasks_.call_as_task(std::move(owner), body, client);
    auto response = co_await std::move(answer);
    co_return answer_with(std::move(response));
  }
  ex.start_stream_deferred(200, sse_headers());
  auto sink = std::make_shared<stream_sink>();
  sink->ex = &ex;
  sink_guard guard{sink};
  auto answer = calls_.guarded(m, [&] { return calls_.call(nullptr, m, sink, &client); });
  auto r = co_await std::move(answer);
  if (r) sink->send(*r);
  ex.end_stream();
  co_return already_answered();
}

// x-mcp-header: the called tool's mirrored parameters against their Mcp-Param-* headers.
// (The gateway's two tools mirror nothing.)
std::optional<refusal> stateless_endpoint::check_param_headers(const codec::http_request& req, const message& m) {
  if (settings_.gateway) return std::nullopt;
  const auto* name = json::get_string(m.params(), "name");
  const auto* arguments = json::get_object(m.params(), "arguments");
  const auto* schema = name ? catalog_.input_schema_of(*name) : nullptr;
  if (!schema || !arguments) return std::nullopt;
  auto params = mirrored_params(*schema);
  if (params.empty()) return std::nullopt;
  return check_mirrored_params(params, *arguments, [&req](std::string_view h) -> std::optional<std::string_view> {
    if (!req.has_header(h)) return std::nullopt;
    return req.header(h);
  });
}

std::size_t stateless_endpoint::listeners_of(const std::string& identity) const {
  return static_cast<std::size_t>(std::count_if(listeners_.begin(), listeners_.end(), [&](const auto& l) { return l->client == identity; }));
}

// Ends the listen streams whose client has gone (their coroutines finish on their own).
void stateless_endpoint::drop_gone_listeners() {
  std::erase_if(listeners_, [](const std::shared_ptr<listener>& l) {
    if (l->sink->ex && !l->sink->ex->peer_closed_now()) return false;
    l->sink->end_soon();
    return true;
  });
}

// 429 when the client, or everyone, has as many listen streams open as allowed.  A client
// that closed its streams without a word still has them here until a keep-alive write
// fails; before refusing anyone for want of room, the sockets are asked.
std::optional<net::http_response> stateless_endpoint::refuse_listen(const message& m, const std::string& identity) {
  auto mine = listeners_of(identity);
  if (mine >= max_listeners_per_client || listeners_.size() >= max_listeners) {
    drop_gone_listeners();
    mine = listeners_of(identity);
  }
  if (mine < max_listeners_per_client && listeners_.size() < max_listeners) return std::nullopt;
  const auto why = mine >= max_listeners_per_client
                       ? "this client has " + std::to_string(mine) + " subscriptions/listen streams open (the limit is " +
                             std::to_string(max_listeners_per_client) + "); close one first"
                       : std::to_string(listeners_.size()) + " subscriptions/listen streams are open (the limit is " +
                             std::to_string(max_listeners) + "); retry later";
  return json_response(429, error_json(m.id, rpc_error::from(make_error(errc::rate_limited, why))));
}

// subscriptions/listen: the acknowledgement, then the notifications the filter asked for,
// until the client closes the stream or the server shuts down (then the listen request
// is answered, which ends the subscription gracefully).
awaitable<request_answer> stateless_endpoint::listen(net::http_exchange& ex, const message& m, const client_context& client) {
  auto p = parse_listen(m.params());
  if (!p) co_return answer_with(json_response(400, error_json(m.id, p.error)));
  if (settings_.gateway) {  // no resources there: not honoured, so not acknowledged
    p.value->resources_list_changed = false;
    p.value->resource_subscriptions.clear();
  }
  if (auto refused = refuse_listen(m, client.identity())) co_return answer_with(std::move(*refused));
  // Held until the client or the server ends it; not a connection to reuse afterwards (see
  // session_endpoint::get).
  ex.close_after();
  ex.start_stream(200, sse_headers());
  auto l = std::make_shared<listener>();
  l->sink = std::make_shared<stream_sink>();
  l->sink->ex = &ex;
  l->sink->wake = std::make_unique<net::event>(exec_);
  l->subscription_id = json::copy_out(m.id);
  l->tools_list_changed = p.value->tools_list_changed;
  l->resources_list_changed = p.value->resources_list_changed;
  for (const auto& uri : p.value->resource_subscriptions) (void)l->resources.add(uri);  // parse_listen bounded them
  l->client = client.identity();
  sink_guard guard{l->sink};
  l->sink->send(listen_acknowledgement(l->subscription_id, *p.value));
  listeners_.push_back(l);
  std::function<bool()> ended = [this] { return shut_; };
  auto hold = hold_standalone_stream(l->sink, settings_.sse_keepalive_interval, std::move(ended));
  co_await std::move(hold);
  std::erase(listeners_, l);
  if (shut_)
    l->sink->send(response_json(m.id, json::object{{"resultType", "complete"},
                                                   {"_meta", json::object{{meta_key::subscription_id, l->subscription_id}}}}));
  ex.end_stream();
  co_return already_answered();
}

}  // namespace opentabs::mcp
