// The live sessions of an endpoint: start, find, end, end_all, and the session coroutine
// that ends an idle session.
#include <doctest/doctest.h>

#include "mcp/session_registry.hpp"

using namespace opentabs;
using namespace opentabs::mcp;

TEST_CASE("sessions are found until they are ended; ending cancels their calls") {
  asio::io_context io;
  net::task_group tasks(io.get_executor());
  session_registry reg(io.get_executor(), tasks, std::chrono::minutes(30), 5, "mcp");
  auto owner = std::make_shared<int>(0);
  auto a = reg.start("2025-06-18", owner);
  auto b = reg.start("2025-03-26", owner);
  CHECK(reg.size() == 2);
  CHECK(reg.find(a->id) == a);
  CHECK(reg.find("no-such-session") == nullptr);
  auto call = std::make_shared<in_flight_call>();
  a->calls.emplace("n:1", call);

  reg.end(a, "deleted by the client");
  CHECK(a->ended);
  CHECK(call->cancelled);
  CHECK(reg.find(a->id) == nullptr);
  CHECK(reg.size() == 1);

  reg.end_all("server shutting down");
  CHECK(b->ended);
  CHECK(reg.size() == 0);
  io.run();  // the session coroutines end once their sessions have
  CHECK(owner.use_count() == 1);
}

TEST_CASE("a session's coroutine ends it when it idles out") {
  asio::io_context io;
  net::task_group tasks(io.get_executor());
  session_registry reg(io.get_executor(), tasks, std::chrono::milliseconds(1), 5, "mcp");
  auto s = reg.start("2025-06-18", nullptr);
  while (reg.size() > 0 && io.run_one() > 0) {
  }
  CHECK(s->ended);
  CHECK(reg.find(s->id) == nullptr);
}

TEST_CASE("with a task group, session coroutines belong to it: shutdown awaits them, and a closed group starts none") {
  asio::io_context io;
  net::task_group tasks(io.get_executor());
  session_registry reg(io.get_executor(), tasks, std::chrono::minutes(30), 5, "mcp");
  auto s = reg.start("2025-06-18", nullptr);
  CHECK(tasks.size() == 1);
  bool all_ended = false;
  asio::co_spawn(
      io,
      [&]() -> net::awaitable<void> {
        tasks.close();
        auto late = reg.start("2025-06-18", nullptr);
        CHECK(late->ended);  // refused by the closed group: ended at once
        reg.end_all("server shutting down");
        all_ended = co_await tasks.wait(net::steady_clock::now() + std::chrono::seconds(5));
      },
      asio::detached);
  io.run();
  CHECK(s->ended);
  CHECK(all_ended);
  CHECK(tasks.size() == 0);
}

namespace {
// Records client_ended; lists and calls nothing.
struct ended_recorder final : tools::tool_service {
  std::vector<std::string> ended;
  std::vector<tools::listed_tool> list_tools() const override { return {}; }
  net::awaitable<tools::call_result> call_tool(std::string, json::object, tools::call_options) override {
    co_return tools::call_result::text("unused", true);
  }
  void client_ended(std::string_view client) override { ended.emplace_back(client); }
};
}  // namespace

TEST_CASE("the service hears when the last session of a named client ends, by deletion or idle expiry, never at shutdown") {
  asio::io_context io;
  ended_recorder service;
  net::task_group tasks(io.get_executor());
  session_registry reg(io.get_executor(), tasks, std::chrono::minutes(30), 10, "mcp", &service);
  auto named = [&](std::string name) {
    auto s = reg.start("2025-06-18", nullptr);
    s->rec->client_name = std::move(name);
    return s;
  };
  auto a1 = named("Claude Code");
  auto a2 = named("Claude Code");
  auto b = named("OpenCode");
  auto anonymous = named("");
  auto c = named("Cursor");
  reg.end(a1, "deleted by the client");
  CHECK(service.ended.empty());  // a2 goes on
  reg.end(a2, "deleted by the client");
  reg.end(anonymous, "deleted by the client");
  CHECK(service.ended == std::vector<std::string>{"Claude Code"});
  reg.end(b, "idle expiry");
  reg.end(b, "idle expiry");  // already ended: not told twice
  CHECK(service.ended == std::vector<std::string>{"Claude Code", "OpenCode"});
  reg.end_all("server shutting down");
  CHECK(c->ended);
  CHECK(service.ended == std::vector<std::string>{"Claude Code", "OpenCode"});
  io.run();
}
