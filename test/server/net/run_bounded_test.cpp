// run_bounded: every task runs, never more than `width` at once, and a task that throws does
// not stop the others or the caller.
#include "net/run_bounded.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

using namespace opentabs;

TEST_CASE("run_bounded runs every task, at most width at a time, and survives a throwing task") {
  asio::io_context io;
  int running = 0, peak = 0, finished = 0;
  bool caller_resumed = false;
  std::vector<net::task_fn> tasks;
  for (int i = 0; i < 7; ++i)
    tasks.push_back([&, i]() -> net::awaitable<void> {
      ++running;
      peak = std::max(peak, running);
      asio::steady_timer t(co_await asio::this_coro::executor, std::chrono::milliseconds(1 + i % 3));
      co_await t.async_wait(asio::use_awaitable);
      --running;
      ++finished;
      if (i == 3) throw std::runtime_error("task 3 fails");
    });
  asio::co_spawn(
      io,
      [&]() -> net::awaitable<void> {
        co_await net::run_bounded(io.get_executor(), std::move(tasks), 3, "test task");
        caller_resumed = true;
      },
      asio::detached);
  io.run();
  CHECK(caller_resumed);
  CHECK(finished == 7);
  CHECK(peak == 3);
  CHECK(running == 0);
}

TEST_CASE("run_bounded with no tasks returns at once; width 0 is treated as 1") {
  asio::io_context io;
  int order = 0, first = -1, second = -1;
  bool done_empty = false, done_serial = false;
  std::vector<net::task_fn> serial;
  serial.push_back([&]() -> net::awaitable<void> { first = order++; co_return; });
  serial.push_back([&]() -> net::awaitable<void> { second = order++; co_return; });
  asio::co_spawn(
      io,
      [&]() -> net::awaitable<void> {
        co_await net::run_bounded(io.get_executor(), {}, 4, "none");
        done_empty = true;
        co_await net::run_bounded(io.get_executor(), std::move(serial), 0, "serial");
        done_serial = true;
      },
      asio::detached);
  io.run();
  CHECK(done_empty);
  CHECK(done_serial);
  CHECK(first == 0);
  CHECK(second == 1);
}
