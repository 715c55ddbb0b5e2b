// The tasks extension (see task_runner.hpp): a call's run, the POST that waits up to
// task_after for it, the settling of a published task, and the tasks/* requests.
#include "mcp/task_runner.hpp"

#include "mcp/protocol_version.hpp"
#include "mcp/streamable_http.hpp"
#include "util/clock.hpp"
#include "util/log.hpp"
#include "util/strings.hpp"

namespace opentabs::mcp {

using namespace opentabs::jsonrpc;
using net::awaitable;

// A tools/call that may become a task: it runs in the background, apart from its POST
// (which waits up to task_after for it), owns its request, and holds the answers its
// pending input requests are waiting for.
struct task_runner::run {
  explicit run(asio::any_io_executor ex) : finished_changed(std::move(ex)) {}
  std::string id;  // its task_store record
  json::value body;  // the request, owned: the call outlives the POST's arena
  std::optional<message> msg;  // views `body`
  client_context client;
  task_call task{std::make_shared<in_flight_call>(), nullptr};
  std::map<std::string, tools::call_options::answer_fn, std::less<>> answers;  // by input request key
  bool finished = false;
  std::optional<std::string> response;  // the call's answer, while it is not a task
  net::event finished_changed;  // the POST waits on it, up to task_after
};

task_runner::task_runner(asio::any_io_executor ex, call_runner& calls, net::task_group& group, std::chrono::milliseconds task_after,
                         task_limits limits, std::string name)
    : exec_(std::move(ex)), calls_(calls), group_(group), task_after_(task_after), name_(std::move(name)), records_(limits) {}

void task_runner::shutdown() {
  for (const auto& [id, r] : runs_) r->task.call->cancel_now();
}

// Cancels the calls of tasks the store dropped (expired, or evicted by a newer one).
void task_runner::drop_runs(const std::vector<std::string>& ids) {
  for (const auto& id : ids) {
    auto it = runs_.find(id);
    if (it == runs_.end()) continue;
    auto r = it->second;
    runs_.erase(it);
    release_answers(*r);
    r->task.call->cancel_now();
  }
}

// Questions nobody will answer any more get "no answer" (the waiting call goes on or ends).
void task_runner::release_answers(run& r) {
  auto answers = std::move(r.answers);
  r.answers.clear();
  for (auto& [key, answer] : answers) answer(nullptr);
}

awaitable<net::http_response> task_runner::call_as_task(std::shared_ptr<const void> owner, const json::value& body,
                                                        const client_context& client) {
  drop_runs(records_.expire(now_epoch_ms()));
  auto r = std::make_shared<run>(exec_);
  r->body = json::copy_out(body);
  r->msg = classify(r->body).msg;
  r->client = client;
  r->id = records_.open(client.identity(), now_epoch_ms());
  if (r->client.declares("elicitation")) r->task.elicit = task_elicit(r);
  runs_.emplace(r->id, r);
  if (!group_.spawn(run_task(std::move(owner), r), "mcp task")) {
    runs_.erase(r->id);
    records_.discard(r->id);
    co_return transport_error(503, "Service Unavailable: the server is shutting down");
  }
  const auto answer_by = net::steady_clock::now() + task_after_;
  while (!r->finished)
    if (!co_await r->finished_changed.wait_until(answer_by)) break;
  auto published = r->finished ? std::nullopt : records_.publish(r->id, now_epoch_ms());
  if (!published) {
    // Ended in time, or the client's tasks are all running: answered when the call ends.
    while (!r->finished) co_await r->finished_changed.wait();
    records_.discard(r->id);
    if (r->response) co_return json_response(200, std::move(*r->response));
    co_return json_response(200, error_json(r->msg->id, rpc_error::internal("the call was cancelled")));
  }
  drop_runs(*published);
  auto handle = json_response(200, response_json(r->msg->id, records_.create_result(*records_.record(r->id))));
  const auto* tool = json::get_string(r->msg->params(), "name");
  log::info(name_ + ": tools/call \"" + std::string(tool ? std::string_view(*tool).substr(0, 64) : "") + "\" continues as task " +
            r->id.substr(0, 8));
  co_return handle;
}

// `owner` keeps this runner alive while the call runs in the background.
awaitable<void> task_runner::run_task([[maybe_unused]] std::shared_ptr<const void> owner, std::shared_ptr<run> r) {
  auto answer = calls_.guarded(*r->msg, [&] { return calls_.call(nullptr, *r->msg, nullptr, &r->client, &r->task); });
  auto response = co_await std::move(answer);
  r->finished = true;
  runs_.erase(r->id);
  release_answers(*r);
  const auto* record = records_.record(r->id);
  if (!record || !record->published) {
    r->response = std::move(response);
    r->finished_changed.notify_all();
    co_return;
  }
  settle_task(r->id, response);
}

// A published task's call ended: its response becomes the task's result or error.
void task_runner::settle_task(const std::string& id, const std::optional<std::string>& response) {
  const auto now = now_epoch_ms();
  if (!response) {
    records_.cancel(id, now);
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
    records_.complete(id, std::move(owned.as_object()), now);
  } else if (error && error->is_object()) {
    auto owned = json::copy_out(*error);
    records_.fail(id, std::move(owned.as_object()), now);
  } else {
    records_.fail(id, rpc_error::internal("the call asked for input after it became a task").to_json(), now);
  }
}

// The question a task's call puts to the client: it becomes one of the task's
// inputRequests, answered by tasks/update.
std::function<bool(json::object, tools::call_options::answer_fn)> task_runner::task_elicit(const std::shared_ptr<run>& r) {
  std::weak_ptr<run> weak = r;
  return [this, weak](json::object params, tools::call_options::answer_fn answer) {
    auto live = weak.lock();
    if (!live || live->finished) return false;
    auto key = records_.ask(live->id, json::object{{"method", "elicitation/create"}, {"params", std::move(params)}}, now_epoch_ms());
    if (!key) return false;
    live->answers.emplace(std::move(*key), std::move(answer));
    return true;
  };
}

// The answers tasks/update brought, handed to the questions of the task's call waiting for them.
void task_runner::answer_questions(const std::string& id, std::vector<std::pair<std::string, json::value>>& accepted) {
  auto it = runs_.find(id);
  if (it == runs_.end()) return;
  auto r = it->second;
  for (auto& [k, value] : accepted) {
    auto waiting = r->answers.find(k);
    if (waiting == r->answers.end()) continue;
    auto answer = std::move(waiting->second);
    r->answers.erase(waiting);
    answer(&value);
  }
}

task_runner::http_answer task_runner::request(const message& m, const client_context& client) {
  if (!client.declares_extension(tasks_extension))
    return {400, error_json(m.id, missing_extension_error(tasks_extension, "must be declared in _meta clientCapabilities to use " + m.method))};
  const auto* id = json::get_string(m.params(), "taskId");
  if (!id) return {200, error_json(m.id, rpc_error::invalid_params("params.taskId", "is required (the taskId of a CreateTaskResult)"))};
  const auto now = now_epoch_ms();
  drop_runs(records_.expire(now));
  const auto* task = records_.find(*id, client.identity(), now);
  if (!task)
    return {200, error_json(m.id, rpc_error::invalid_params_text("Task not found: " + quote_for_error(*id, 64) +
                                                                 " is unknown, expired or evicted (tasks are kept " +
                                                                 std::to_string(records_.limits().ttl.count()) + " ms, at most " +
                                                                 std::to_string(records_.limits().max_per_client) + " per client)"))};
  if (m.method == "tasks/get") return {200, response_json(m.id, records_.detailed(*task))};
  const std::string key(*id);
  if (m.method == "tasks/update") {
    const auto* responses = json::find(m.params(), "inputResponses");
    if (!responses || !responses->is_object())
      return {200, error_json(m.id, rpc_error::invalid_params("params.inputResponses", "must be an object keyed by the task's inputRequests keys"))};
    auto accepted = records_.answer(key, responses->get_object(), now);
    answer_questions(key, accepted);
  } else if (records_.cancel(key, now)) {
    if (auto it = runs_.find(key); it != runs_.end()) {
      auto r = it->second;
      r->task.call->cancel_now();
      release_answers(*r);
    }
  }
  return {200, response_json(m.id, json::object{{"resultType", "complete"}})};
}

}  // namespace opentabs::mcp
