// child_task: the parent's join() returns only after the child has finished, whether the
// child finishes before or after the join starts, and a child that throws still counts as
// finished (the connection must not wait forever on a child that failed).
#include "net/child_task.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

using namespace opentabs;

namespace {

net::awaitable<void> sleep_then(std::chrono::milliseconds d, std::vector<std::string>& trace, std::string mark) {
  asio::steady_timer t(co_await asio::this_coro::executor, d);
  co_await t.async_wait(net::as_value);
  trace.push_back(std::move(mark));
}

net::awaitable<void> throws_now() {
  throw std::runtime_error("child failed");
  co_return;
}

}  // namespace

TEST_CASE("join waits for a child that is still running") {
  asio::io_context io;
  std::vector<std::string> trace;
  asio::co_spawn(
      io,
      [&]() -> net::awaitable<void> {
        net::child_task child(io.get_executor(), "test child");
        child.start(sleep_then(std::chrono::milliseconds(20), trace, "child done"));
        CHECK_FALSE(child.finished());
        co_await child.join();
        trace.push_back("joined");
        CHECK(child.finished());
      },
      asio::detached);
  io.run();
  CHECK(trace == std::vector<std::string>{"child done", "joined"});
}

TEST_CASE("join returns at once for a child that already finished") {
  asio::io_context io;
  std::vector<std::string> trace;
  asio::co_spawn(
      io,
      [&]() -> net::awaitable<void> {
        net::child_task child(io.get_executor(), "test child");
        child.start(sleep_then(std::chrono::milliseconds(0), trace, "child done"));
        co_await sleep_then(std::chrono::milliseconds(30), trace, "parent slept");
        CHECK(child.finished());
        co_await child.join();
        trace.push_back("joined");
      },
      asio::detached);
  io.run();
  CHECK(trace == std::vector<std::string>{"child done", "parent slept", "joined"});
}

TEST_CASE("a child that throws is finished, and join does not rethrow") {
  asio::io_context io;
  bool joined = false;
  asio::co_spawn(
      io,
      [&]() -> net::awaitable<void> {
        net::child_task child(io.get_executor(), "test child");
        child.start(throws_now());
        co_await child.join();
        joined = child.finished();
      },
      asio::detached);
  io.run();
  CHECK(joined);
}

TEST_CASE("join on a child never started returns at once") {
  asio::io_context io;
  bool joined = false;
  asio::co_spawn(
      io,
      [&]() -> net::awaitable<void> {
        net::child_task child(io.get_executor(), "test child");
        co_await child.join();
        joined = true;
      },
      asio::detached);
  io.run();
  CHECK(joined);
}
