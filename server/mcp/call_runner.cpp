// How one tools/call runs (see call_runner.hpp): options, registration, the pipeline, the
// response.
#include "mcp/call_runner.hpp"

#include <vector>

#include "mcp/elicitation_asker.hpp"
#include "mcp/gateway_routing.hpp"
#include "mcp/input_required_asker.hpp"
#include "mcp/request_methods.hpp"
#include "mcp/requests.hpp"

namespace opentabs::mcp {

using namespace opentabs::jsonrpc;
using net::awaitable;

call_runner::call_runner(asio::any_io_executor ex, tools::tool_service& service, tool_catalog& catalog,
                         request_state_seal& request_states, bool gateway, stream_timing timing)
    : service_(service), catalog_(catalog), request_states_(request_states), gateway_(gateway), timing_(timing),
      call_deadlines_(std::move(ex), net::deadline_set::when_empty::keep_timer) {}

void call_runner::forward_plugin_log(const tools::plugin_log_entry& entry) {
  std::string note;
  for (const auto& [call, min] : logged_calls_) {
    if (call->plugin != entry.plugin || plugin_log_level(entry.level) < min || !call->sink) continue;
    if (note.empty()) note = notification_json("notifications/message", plugin_log_params(entry));
    call->sink->send(note);
  }
}

// Routes gateway meta-tools, then awaits the pipeline (its stream kept alive by a
// call_stream_keeper when the answer streams).
awaitable<std::optional<std::string>> call_runner::call(std::shared_ptr<live_session> s, const message& m, std::shared_ptr<stream_sink> sink,
                                                        const client_context* modern, const task_call* task) {
  auto p = parse_tools_call(m.params());
  if (!p) co_return error_json(m.id, p.error);
  auto& req = *p.value;
  const auto key = id_key(m.id);
  if (s && s->calls.count(key))
    co_return error_json(m.id, rpc_error::invalid_request("request id " + json::dump(m.id) + " is already used by a call in flight"));

  auto c = task ? task->call : std::make_shared<in_flight_call>();
  c->sink = sink;
  c->progress_token = req.progress_token;
  tools::call_options opts = call_options_for(s, sink, modern, task, req, c);
  if (!modern && (req.input_responses || req.request_state)) {
    co_return error_json(m.id, rpc_error::invalid_params("params.inputResponses", "and params.requestState belong to protocol revision " +
                                                                           std::string(modern_protocol_version) + ", not to a session"));
  }

  std::string tool = std::move(req.name);
  json::object arguments = std::move(req.arguments);
  if (gateway_) {
    if (auto answer = route_through_gateway(m, modern, tool, arguments)) co_return answer;
  }
  c->plugin = std::string(catalog_.plugin_of(tool));

  if (s) s->calls.emplace(key, c);
  if (modern && modern->min_log_level) logged_calls_.emplace(c.get(), *modern->min_log_level);
  auto pipeline = await_registered_call(s.get(), key, c, sink, modern, std::move(tool), std::move(arguments), std::move(opts));
  tools::call_result result = co_await std::move(pipeline);
  if (c->cancelled) co_return std::nullopt;
  co_return tools_call_response(m.id, result, gateway_, modern != nullptr);
}

// How the pipeline reaches back to the caller of one call: its cancellation, its origin,
// the input round of a 2026-07-28 call or the elicitation a 2025 session's client
// supports (and the asker its permission question goes to: a round trip for a client that
// can show a form, else that elicitation), and where its progress goes when a progress
// token asks for it.
tools::call_options call_runner::call_options_for(const std::shared_ptr<live_session>& s, const std::shared_ptr<stream_sink>& sink,
                                                  const client_context* modern, const task_call* task, tools_call_request& req,
                                                  const std::shared_ptr<in_flight_call>& c) {
  tools::call_options opts;
  opts.cancel = c->cancel;
  opts.origin = gateway_ ? "gateway" : "mcp";
  opts.client = modern ? modern->client_name : s ? s->rec->client_name : std::string();
  // Per-caller budgets: a 2026-07-28 request's credential and name; a session's server-issued id.
  opts.caller = modern ? "mcp " + modern->identity() : s ? "session " + s->id : std::string("mcp");
  if (modern) {
    auto input = std::make_shared<tools::input_round>();
    input->client_capabilities = modern->capabilities;
    input->client = modern->client_name;
    input->request_state = std::move(req.request_state);
    input->responses = std::move(req.input_responses);
    // A client that can show a form is asked its permission question across a round trip.
    if (input->can_elicit_form()) opts.round_trip = std::make_shared<input_required_asker>(input, request_states_);
    opts.input = std::move(input);
    if (task && modern->declares("elicitation")) opts.elicit = task->elicit;
    if (opts.elicit && !opts.round_trip) opts.dialog = std::make_shared<elicitation_asker>(opts.elicit, nullptr);
  } else if (s && sink && (s->rec->client_elicits_form || s->rec->client_samples)) {
    std::weak_ptr<live_session> session = s;
    std::weak_ptr<stream_sink> stream = sink;
    // The ids of the elicitations sent, so they can be withdrawn (sampling requests are not).
    auto asked = std::make_shared<std::vector<std::string>>();
    auto ask = [session, stream](std::string_view method, json::object params, tools::call_options::answer_fn answer) {
      auto live = session.lock();
      auto out = stream.lock();
      return live && out ? live->ask_client(*out, method, std::move(params), std::move(answer)) : std::nullopt;
    };
    if (s->rec->client_elicits_form) {
      opts.elicit = [ask, asked](json::object params, tools::call_options::answer_fn answer) {
        auto id = ask("elicitation/create", std::move(params), std::move(answer));
        if (id) asked->push_back(std::move(*id));
        return id.has_value();
      };
      // The permission question in the client's dialog, withdrawn when decided elsewhere.
      opts.dialog = std::make_shared<elicitation_asker>(opts.elicit, [session, stream, asked](std::string_view reason) {
        auto live = session.lock();
        auto out = stream.lock();
        if (live && out)
          for (const auto& id : *asked) live->withdraw_request(*out, id, reason);
        asked->clear();
      });
    }
    if (s->rec->client_samples)
      opts.sample = [ask](json::object params, tools::call_options::answer_fn answer) {
        return ask("sampling/createMessage", std::move(params), std::move(answer)).has_value();
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

tools::call_options call_runner::request_options(const std::shared_ptr<live_session>& s, const std::shared_ptr<stream_sink>& sink,
                                                 const client_context* modern, std::optional<json::value> input_responses,
                                                 std::optional<std::string> request_state) {
  tools_call_request req;
  req.input_responses = std::move(input_responses);
  req.request_state = std::move(request_state);
  return call_options_for(s, sink, modern, nullptr, req, std::make_shared<in_flight_call>());
}

// A gateway meta-tool either answers itself (the response returned) or names the plugin
// tool to run, which replaces `tool` and `arguments`.
std::optional<std::string> call_runner::route_through_gateway(const message& m, const client_context* modern, std::string& tool,
                                                              json::object& arguments) {
  auto route = route_gateway_call(catalog_, tool, std::move(arguments));
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

// Runs a call already registered (in its session, in logged_calls_) through the pipeline
// and unregisters it however the call ends, a throwing pipeline included.
awaitable<tools::call_result> call_runner::await_registered_call(live_session* s, const std::string& key, std::shared_ptr<in_flight_call> c,
                                                                 std::shared_ptr<stream_sink> sink, const client_context* modern,
                                                                 std::string tool, json::object arguments, tools::call_options opts) {
  struct erase_on_exit {
    call_runner& runner;
    live_session* s;
    const std::string& key;
    const std::shared_ptr<in_flight_call>& c;
    ~erase_on_exit() {
      runner.logged_calls_.erase(c.get());
      if (!s) return;
      auto it = s->calls.find(key);
      if (it != s->calls.end() && it->second == c) s->calls.erase(it);
    }
  } erase{*this, s, key, c};
  // The keeper's timer ends with this call, however it ends, so no keep-alive outlives it.
  std::optional<call_stream_keeper> keeper;
  std::function<void()> on_peer_gone;
  if (modern) on_peer_gone = [c] { c->cancel_now(); };
  if (sink) keeper.emplace(call_deadlines_, sink, timing_.head_delay, timing_.keepalive_interval, std::move(on_peer_gone));
  auto call = service_.call_tool(std::move(tool), std::move(arguments), std::move(opts));
  co_return co_await std::move(call);
}

}  // namespace opentabs::mcp
