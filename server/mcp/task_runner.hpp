// The tasks extension of MCP 2026-07-28 for the clients that declare it: a tools/call runs
// in the background (spawned into a task_group) and is answered directly when it ends
// within task_after, else with a task handle (CreateTaskResult); tasks/get, tasks/update
// (answers to the call's questions) and tasks/cancel then reach it.  Owns the task store
// and the runs behind the tasks still running; the calls themselves go through the shared
// call_runner.  Runs on the io thread.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "jsonrpc/jsonrpc.hpp"
#include "mcp/call_runner.hpp"
#include "mcp/modern_request.hpp"
#include "mcp/task_store.hpp"
#include "net/asio.hpp"
#include "net/event.hpp"
#include "net/http_exchange.hpp"
#include "net/task_group.hpp"

namespace opentabs::mcp {

class task_runner {
 public:
  // `group`: where the calls run (the server's background group).  `name` prefixes log
  // lines ("mcp", "mcp gateway").
  task_runner(asio::any_io_executor ex, call_runner& calls, net::task_group& group, std::chrono::milliseconds task_after,
              task_limits limits, std::string name);

  // A tools/call (the whole POST body) from a client that declared the tasks extension; the
  // POST's answer: the call's response when it ends within task_after, else a task handle
  // (the record is published before the handle goes out, so an immediate tasks/get finds
  // it).  `owner` holds what owns this runner for as long as the call runs in the background.
  net::awaitable<net::http_response> call_as_task(std::shared_ptr<const void> owner, const json::value& body,
                                                  const client_context& client);

  // tasks/get, tasks/update, tasks/cancel: the HTTP status and the JSON-RPC response.
  struct http_answer {
    int http_status = 200;
    std::string body;
  };
  http_answer request(const jsonrpc::message& m, const client_context& client);

  // Server shutdown: the calls of running tasks are cancelled.
  void shutdown();

 private:
  struct run;
  net::awaitable<void> run_task(std::shared_ptr<const void> owner, std::shared_ptr<run> r);
  void settle_task(const std::string& id, const std::optional<std::string>& response);
  std::function<bool(json::object, tools::call_options::answer_fn)> task_elicit(const std::shared_ptr<run>& r);
  void answer_questions(const std::string& id, std::vector<std::pair<std::string, json::value>>& accepted);
  void drop_runs(const std::vector<std::string>& ids);
  static void release_answers(run& r);

  asio::any_io_executor exec_;
  call_runner& calls_;
  net::task_group& group_;
  std::chrono::milliseconds task_after_;
  std::string name_;
  task_store records_;
  // The calls behind the tasks still running, by task id.
  std::map<std::string, std::shared_ptr<run>, std::less<>> runs_;
};

}  // namespace opentabs::mcp
