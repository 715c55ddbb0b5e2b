// The tasks extension's runner without sockets, over the scripted tool_service of
// mcp_harness.hpp: a call that ends within task_after is answered directly and leaves no
// task; one still running becomes a task that tasks/get reports and tasks/cancel stops.
// The same paths over HTTP: test/integration/mcp_tasks.test.mjs.
#include <doctest/doctest.h>

#include "json_text.hpp"
#include "mcp/task_runner.hpp"
#include "mcp_harness.hpp"

using namespace opentabs;
using namespace opentabs::mcp;
using namespace std::chrono_literals;

using opentabs::mcp::testing::object_of;

namespace {

// One runner with its call runner, group and scripted tools on a fresh io_context.
struct task_rig {
  explicit task_rig(std::chrono::milliseconds task_after) : runner(io.get_executor(), calls, group, task_after, task_limits{}, "mcp") {}

  asio::io_context io;
  tools::server_events events;
  mcp_test::scripted_tools service{io.get_executor(), events};
  tool_catalog catalog{service};
  request_state_seal request_states;
  call_runner calls{io.get_executor(), service, catalog, request_states, false, {50ms, 15s}};
  net::task_group group{io.get_executor()};
  task_runner runner;

  // A client that declared the tasks extension.
  static client_context client() {
    client_context c;
    c.protocol_version = "2026-07-28";
    c.capabilities = json::object{{"extensions", json::object{{std::string(tasks_extension), json::object{}}}}};
    c.client_name = "rig";
    c.caller = "credential";
    return c;
  }

  // call_as_task for `request` (JSON text), run until it answers (bounded).
  std::optional<net::http_response> post(std::string_view request) {
    auto body = json::parse(request);
    REQUIRE(body);
    std::optional<net::http_response> answer;
    const auto who = client();  // call_as_task keeps a reference until it first suspends
    asio::co_spawn(
        io,
        [&]() -> net::awaitable<void> {
          auto work = runner.call_as_task(nullptr, *body, who);
          answer = co_await std::move(work);
        },
        net::log_failure("test post"));
    for (int i = 0; i < 1000 && !answer; ++i) io.run_one_for(10ms);
    return answer;
  }

  task_runner::http_answer ask(std::string_view request) {
    auto value = json::parse(request);
    REQUIRE(value);
    auto c = jsonrpc::classify(*value);
    REQUIRE(c);
    return runner.request(*c.msg, client());
  }
};

}  // namespace

TEST_CASE("a call that ends within task_after is answered directly, and no task is left behind") {
  task_rig rig(5s);
  auto answer = rig.post(R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"notes_echo","arguments":{"text":"hi"}}})");
  REQUIRE(answer);
  CHECK(answer->status == 200);
  auto response = object_of(answer->body);
  const auto* result = json::get_object(response, "result");
  REQUIRE(result);
  CHECK(json::find(*result, "taskId") == nullptr);
  CHECK(answer->body.find("hi") != std::string::npos);
  REQUIRE(rig.service.calls.size() == 1);
  CHECK(rig.service.calls[0].name == "notes_echo");
}

TEST_CASE("a call still running after task_after becomes a task: tasks/get reports it, tasks/cancel stops its call") {
  task_rig rig(1ms);
  auto answer = rig.post(R"({"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"notes_slow","arguments":{}}})");
  REQUIRE(answer);
  CHECK(answer->status == 200);
  auto handle = object_of(answer->body);
  const auto* created = json::get_object(handle, "result");
  REQUIRE(created);
  CHECK(*json::get_string(*created, "resultType") == "task");
  CHECK(*json::get_string(*created, "status") == "working");
  const std::string id(*json::get_string(*created, "taskId"));

  auto got = rig.ask(R"({"jsonrpc":"2.0","id":9,"method":"tasks/get","params":{"taskId":")" + id + R"("}})");
  CHECK(got.http_status == 200);
  CHECK(got.body.find("\"working\"") != std::string::npos);

  auto cancelled = rig.ask(R"({"jsonrpc":"2.0","id":10,"method":"tasks/cancel","params":{"taskId":")" + id + R"("}})");
  CHECK(cancelled.http_status == 200);
  for (int i = 0; i < 1000 && rig.group.size() > 0; ++i) rig.io.run_one_for(10ms);
  CHECK(rig.group.size() == 0);
  CHECK(rig.service.slow_cancelled == 1);
  auto after = rig.ask(R"({"jsonrpc":"2.0","id":11,"method":"tasks/get","params":{"taskId":")" + id + R"("}})");
  CHECK(after.body.find("\"cancelled\"") != std::string::npos);
}

TEST_CASE("tasks/get from a client that did not declare the extension is refused with 400") {
  task_rig rig(5s);
  auto value = json::parse(R"({"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"x"}})");
  REQUIRE(value);
  auto c = jsonrpc::classify(*value);
  client_context plain;
  plain.client_name = "plain";
  auto answer = rig.runner.request(*c.msg, plain);
  CHECK(answer.http_status == 400);
}
