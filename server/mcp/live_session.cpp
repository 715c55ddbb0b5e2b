// One live MCP session's rules (see live_session.hpp).
#include "mcp/live_session.hpp"

#include <cmath>
#include <vector>

#include "mcp/requests.hpp"
#include "util/random.hpp"

namespace opentabs::mcp {
namespace {

json::value number_value(double d) {
  if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9e15) return static_cast<std::int64_t>(d);
  return d;
}

}  // namespace

void in_flight_call::forward_progress(const tools::progress_update& u) {
  if (cancelled || !sink) return;
  if (last_progress && u.progress <= *last_progress) return;
  last_progress = u.progress;
  json::object params{{"progressToken", progress_token}, {"progress", number_value(u.progress)}};
  if (u.total) params["total"] = number_value(*u.total);
  if (!u.message.empty()) params["message"] = json::str(u.message);
  sink->send(jsonrpc::notification_json("notifications/progress", params));
}

bool live_session::deliver_unsolicited(const std::string& note, std::string_view plugin) {
  if (!plugin.empty())
    for (auto& [key, c] : calls)
      if (c->plugin == plugin && c->sink && c->sink->open() && c->sink->send(note)) return true;
  if (standalone && standalone->open() && standalone->send(note)) return true;
  for (auto& [key, c] : calls)
    if (c->sink && c->sink->open() && c->sink->send(note)) return true;
  return false;
}

void live_session::handle_notification(const jsonrpc::message& m) {
  if (m.method == "notifications/initialized") {
    rec->initialized = true;
  } else if (m.method == "notifications/cancelled") {
    auto id = parse_cancelled(m.params());
    if (!id) return;  // malformed cancellations are ignored (spec)
    auto it = calls.find(jsonrpc::id_key(*id));
    if (it == calls.end()) return;  // finished or unknown: a normal race
    it->second->cancel_now();
  }
  // Other notifications (progress from the client, roots changes, ...) need nothing.
}

std::optional<std::string> live_session::ask_client(stream_sink& stream, std::string_view method, json::object params,
                                                    tools::call_options::answer_fn answer) {
  if (ended || !stream.open() || awaiting_answers.size() >= max_awaiting_answers) return std::nullopt;
  std::string id = "opentabs-" + random_hex(8);
  json::object request{{"jsonrpc", "2.0"}, {"id", json::str(id)}, {"method", json::str(method)}, {"params", std::move(params)}};
  if (!stream.send(json::dump(request))) return std::nullopt;
  awaiting_answers.emplace(jsonrpc::id_key(json::str(id)), std::move(answer));
  return id;
}

void live_session::withdraw_request(stream_sink& stream, const std::string& id, std::string_view reason) {
  auto key = jsonrpc::id_key(json::str(id));
  auto it = awaiting_answers.find(key);
  if (it == awaiting_answers.end()) return;  // answered already
  if (withdrawn_order.size() >= max_withdrawn_answers) {
    withdrawn_answers.erase(withdrawn_order.front());
    withdrawn_order.pop_front();
  }
  withdrawn_answers[key] = std::move(it->second);
  withdrawn_order.push_back(key);
  awaiting_answers.erase(it);
  if (!stream.open()) return;
  stream.send(json::dump(json::object{{"jsonrpc", "2.0"},
                                      {"method", "notifications/cancelled"},
                                      {"params", json::object{{"requestId", json::str(id)}, {"reason", json::str(reason)}}}}));
}

std::string live_session::handle_response(const jsonrpc::message& m, const json::value& response) {
  const auto key = jsonrpc::id_key(m.id);
  tools::call_options::answer_fn answer;
  if (auto it = awaiting_answers.find(key); it != awaiting_answers.end()) {
    answer = std::move(it->second);
    awaiting_answers.erase(it);
  } else if (auto late = withdrawn_answers.find(key); late != withdrawn_answers.end()) {
    answer = std::move(late->second);
    withdrawn_answers.erase(late);
    std::erase(withdrawn_order, key);
  } else {
    return {};  // not ours, or answered already
  }
  const json::value* result = response.is_object() ? response.get_object().if_contains("result") : nullptr;
  return answer(result);
}

void live_session::end() {
  if (ended) return;
  ended = true;
  // Whoever waits for a client's answer learns that none will come.
  auto unanswered = std::move(awaiting_answers);
  awaiting_answers.clear();
  for (auto& [key, answer] : unanswered) answer(nullptr);
  withdrawn_answers.clear();
  withdrawn_order.clear();
  life_changed.notify_all();
  if (standalone) standalone->end_soon();
  // Copied first: a cancel hook belongs to the pipeline and must not be able to
  // invalidate this iteration.
  std::vector<std::shared_ptr<in_flight_call>> in_flight;
  for (auto& [key, c] : calls) in_flight.push_back(c);
  for (auto& c : in_flight) c->cancel_now();
}

}  // namespace opentabs::mcp
