// The tasks of the io.modelcontextprotocol/tasks extension (MCP 2026-07-28, SEP-2663),
// sans-I/O: a tools/call that outlives a short threshold is answered with a task handle,
// and the client polls tasks/get, answers the task's questions with tasks/update and may
// tasks/cancel it.  This class keeps the tasks' states, their inlined results or errors,
// their outstanding input requests, and the bounds: a task is kept for `ttl` from its
// creation, and each client holds at most `max_per_client` tasks: its oldest finished one
// gives way to a new one, a running task never does; with max_per_client tasks running, a
// new call is not made a task and is answered when it ends.  A client is what the endpoint
// passes (client_context::identity: the caller's credential and its clientInfo name), so a
// second client that calls itself by the same name with its own credential has its own
// tasks and bound and cannot see, end or crowd out the first one's.  The caller passes the time (epoch milliseconds).
//
// A call's task record is opened when the call starts but stays hidden (tasks/get does
// not see it) until the call is published as a task; a call that answers before the
// threshold is discarded instead.  So input requests a call makes before it becomes a
// task are already in place when the task appears.
//
// Task ids are 128 random bits: a task id is the only handle on a task, and ids of one
// client must not be guessable by another (a foreign id is answered as unknown).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/json.hpp"

namespace opentabs::mcp {

inline constexpr std::string_view tasks_extension = "io.modelcontextprotocol/tasks";

enum class task_status { working, input_required, completed, failed, cancelled };
std::string_view to_string(task_status s);
constexpr bool is_terminal(task_status s) {
  return s == task_status::completed || s == task_status::failed || s == task_status::cancelled;
}

struct task_limits {
  std::chrono::milliseconds ttl{std::chrono::minutes(30)};
  std::size_t max_per_client = 16;
  std::chrono::milliseconds poll_interval{std::chrono::milliseconds(500)};
};

struct task_record {
  std::string id;
  std::string client;  // the identity of the client whose request created it (credential + name)
  bool published = false;
  task_status status = task_status::working;
  std::string status_message;
  std::int64_t created_ms = 0;
  std::int64_t updated_ms = 0;
  std::optional<json::object> result;  // completed: what tools/call would have returned
  std::optional<json::object> error;   // failed: the JSON-RPC error
  json::object input_requests;         // outstanding, by key
  std::uint64_t next_key = 1;          // keys are never reused within a task
};

class task_store {
 public:
  explicit task_store(task_limits limits = {});

  // A hidden record for a call that may become a task; its id.
  std::string open(std::string_view client, std::int64_t now_ms);
  // Makes the record visible to tasks/get; returns the ids of the finished tasks evicted to
  // keep the client within its bound, or nullopt (not published) when the client's
  // max_per_client tasks are all still running.
  std::optional<std::vector<std::string>> publish(std::string_view id, std::int64_t now_ms);
  // Drops a record (a call answered before it became a task, or whose caller went away).
  void discard(std::string_view id);

  // The published task `id` of `client`; nullptr when unknown, expired, or another
  // client's (the three are indistinguishable on purpose).
  const task_record* find(std::string_view id, std::string_view client, std::int64_t now_ms);
  // A record by id alone, published or not (the call that owns it); nullptr when gone.
  const task_record* record(std::string_view id) const;

  // The call's outcome.  Each is ignored once the task is terminal (a cancelled task stays
  // cancelled whatever the call still returns); false then, or when the task is gone.
  bool complete(std::string_view id, json::object result, std::int64_t now_ms);
  bool fail(std::string_view id, json::object error, std::int64_t now_ms);
  bool cancel(std::string_view id, std::int64_t now_ms);

  // The call asks the client something (an elicitation/create, ...): a fresh key for it;
  // the task is input_required while any request is outstanding.  nullopt when the task
  // is gone or terminal.
  std::optional<std::string> ask(std::string_view id, json::object request, std::int64_t now_ms);
  // tasks/update: the responses whose keys are outstanding, removed from the outstanding
  // set; responses to unknown or already answered keys are ignored (as the spec says).
  std::vector<std::pair<std::string, json::value>> answer(std::string_view id, const json::object& responses, std::int64_t now_ms);

  // Drops expired tasks; their ids (the caller cancels their calls).
  std::vector<std::string> expire(std::int64_t now_ms);

  // CreateTaskResult (resultType "task") and tasks/get's DetailedTask (resultType "complete").
  json::object create_result(const task_record& t) const;
  json::object detailed(const task_record& t) const;

  std::size_t size() const { return tasks_.size(); }
  const task_limits& limits() const { return limits_; }

 private:
  task_record* mutable_record(std::string_view id);
  json::object envelope(const task_record& t, std::string_view result_type) const;
  void touch(task_record& t, std::int64_t now_ms);

  task_limits limits_;
  std::map<std::string, task_record, std::less<>> tasks_;
};

}  // namespace opentabs::mcp
