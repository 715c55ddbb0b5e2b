#include "mcp/task_store.hpp"

#include <algorithm>

#include "util/clock.hpp"
#include "util/random.hpp"

namespace opentabs::mcp {

std::string_view to_string(task_status s) {
  switch (s) {
    case task_status::working: return "working";
    case task_status::input_required: return "input_required";
    case task_status::completed: return "completed";
    case task_status::failed: return "failed";
    case task_status::cancelled: return "cancelled";
  }
  return "working";
}

task_store::task_store(task_limits limits) : limits_(limits) {}

std::string task_store::open(std::string_view client, std::int64_t now_ms) {
  task_record t;
  t.id = random_hex(16);
  t.client = std::string(client);
  t.created_ms = t.updated_ms = now_ms;
  auto id = t.id;
  tasks_.emplace(id, std::move(t));
  return id;
}

std::optional<std::vector<std::string>> task_store::publish(std::string_view id, std::int64_t now_ms) {
  auto* t = mutable_record(id);
  if (!t) return std::vector<std::string>{};
  std::vector<const task_record*> mine;
  for (const auto& [key, other] : tasks_)
    if (other.published && other.client == t->client) mine.push_back(&other);
  std::vector<std::string> evicted;
  if (mine.size() >= limits_.max_per_client) {
    // Finished tasks give way, oldest first; a running one never does, whoever else
    // calls itself by the same name.
    std::sort(mine.begin(), mine.end(), [](const task_record* a, const task_record* b) { return a->created_ms < b->created_ms; });
    for (const auto* other : mine)
      if (mine.size() - evicted.size() >= limits_.max_per_client && is_terminal(other->status)) evicted.push_back(other->id);
    if (mine.size() - evicted.size() >= limits_.max_per_client) return std::nullopt;
    for (const auto& e : evicted) tasks_.erase(e);
  }
  t->published = true;
  // A task's ttl runs from the moment the client learns its id.
  t->created_ms = t->updated_ms = now_ms;
  return evicted;
}

void task_store::discard(std::string_view id) {
  if (auto it = tasks_.find(id); it != tasks_.end()) tasks_.erase(it);
}

const task_record* task_store::find(std::string_view id, std::string_view client, std::int64_t now_ms) {
  auto it = tasks_.find(id);
  if (it == tasks_.end() || !it->second.published || it->second.client != client) return nullptr;
  if (now_ms - it->second.created_ms >= limits_.ttl.count()) {
    tasks_.erase(it);
    return nullptr;
  }
  return &it->second;
}

const task_record* task_store::record(std::string_view id) const {
  auto it = tasks_.find(id);
  return it == tasks_.end() ? nullptr : &it->second;
}

task_record* task_store::mutable_record(std::string_view id) {
  auto it = tasks_.find(id);
  return it == tasks_.end() ? nullptr : &it->second;
}

void task_store::touch(task_record& t, std::int64_t now_ms) { t.updated_ms = std::max(now_ms, t.created_ms); }

bool task_store::complete(std::string_view id, json::object result, std::int64_t now_ms) {
  auto* t = mutable_record(id);
  if (!t || is_terminal(t->status)) return false;
  t->status = task_status::completed;
  t->result = std::move(result);
  t->input_requests.clear();
  t->status_message.clear();
  touch(*t, now_ms);
  return true;
}

bool task_store::fail(std::string_view id, json::object error, std::int64_t now_ms) {
  auto* t = mutable_record(id);
  if (!t || is_terminal(t->status)) return false;
  const auto* message = json::get_string(error, "message");
  t->status_message = message ? std::string(*message) : std::string("the call failed");
  t->status = task_status::failed;
  t->error = std::move(error);
  t->input_requests.clear();
  touch(*t, now_ms);
  return true;
}

bool task_store::cancel(std::string_view id, std::int64_t now_ms) {
  auto* t = mutable_record(id);
  if (!t || is_terminal(t->status)) return false;
  t->status = task_status::cancelled;
  t->status_message = "cancelled by the client";
  t->input_requests.clear();
  touch(*t, now_ms);
  return true;
}

std::optional<std::string> task_store::ask(std::string_view id, json::object request, std::int64_t now_ms) {
  auto* t = mutable_record(id);
  if (!t || is_terminal(t->status)) return std::nullopt;
  auto key = "input-" + std::to_string(t->next_key++);
  t->input_requests[key] = std::move(request);
  t->status = task_status::input_required;
  touch(*t, now_ms);
  return key;
}

std::vector<std::pair<std::string, json::value>> task_store::answer(std::string_view id, const json::object& responses, std::int64_t now_ms) {
  std::vector<std::pair<std::string, json::value>> accepted;
  auto* t = mutable_record(id);
  if (!t || is_terminal(t->status)) return accepted;
  for (const auto& [key, response] : responses) {
    if (!t->input_requests.erase(key)) continue;
    accepted.emplace_back(std::string(key), json::copy_out(response));
  }
  if (!accepted.empty()) {
    if (t->input_requests.empty()) t->status = task_status::working;
    touch(*t, now_ms);
  }
  return accepted;
}

std::vector<std::string> task_store::expire(std::int64_t now_ms) {
  std::vector<std::string> gone;
  for (auto it = tasks_.begin(); it != tasks_.end();) {
    if (it->second.published && now_ms - it->second.created_ms >= limits_.ttl.count()) {
      gone.push_back(it->first);
      it = tasks_.erase(it);
    } else {
      ++it;
    }
  }
  return gone;
}

json::object task_store::envelope(const task_record& t, std::string_view result_type) const {
  json::object o{{"resultType", json::str(result_type)},
                 {"taskId", json::str(t.id)},
                 {"status", json::str(to_string(t.status))},
                 {"createdAt", json::str(iso8601_from_epoch_ms(t.created_ms))},
                 {"lastUpdatedAt", json::str(iso8601_from_epoch_ms(t.updated_ms))},
                 {"ttlMs", static_cast<std::int64_t>(limits_.ttl.count())},
                 {"pollIntervalMs", static_cast<std::int64_t>(limits_.poll_interval.count())}};
  if (!t.status_message.empty()) o["statusMessage"] = json::str(t.status_message);
  return o;
}

json::object task_store::create_result(const task_record& t) const { return envelope(t, "task"); }

json::object task_store::detailed(const task_record& t) const {
  auto o = envelope(t, "complete");
  if (t.status == task_status::input_required) o["inputRequests"] = t.input_requests;
  if (t.status == task_status::completed && t.result) o["result"] = *t.result;
  if (t.status == task_status::failed && t.error) o["error"] = *t.error;
  return o;
}

}  // namespace opentabs::mcp
