// task_group: waits for every task (or its deadline), refuses new work once closed and then
// runs the stop actions tasks registered, survives a throwing task; failure_text names what
// was thrown.
#include "net/task_group.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <optional>
#include <stdexcept>

using namespace opentabs;
using namespace std::chrono_literals;

namespace {

net::awaitable<void> sleep_for(std::chrono::milliseconds d, int& finished) {
  asio::steady_timer t(co_await asio::this_coro::executor, d);
  co_await t.async_wait(asio::use_awaitable);
  ++finished;
}

}  // namespace

TEST_CASE("wait resumes once every task has ended, a throwing one included") {
  asio::io_context io;
  net::task_group group(io.get_executor());
  int finished = 0;
  std::optional<bool> all_ended;
  std::size_t size_at_start = 0;
  for (int i = 0; i < 3; ++i) group.spawn(sleep_for(std::chrono::milliseconds(1 + i), finished), "sleeper");
  group.spawn([]() -> net::awaitable<void> {
    co_await asio::post(co_await asio::this_coro::executor, asio::use_awaitable);
    throw std::runtime_error("boom");
  }(), "thrower");
  size_at_start = group.size();
  asio::co_spawn(
      io, [&]() -> net::awaitable<void> { all_ended = co_await group.wait(net::steady_clock::now() + 60s); },
      asio::detached);
  io.run();
  CHECK(size_at_start == 4);
  REQUIRE(all_ended.has_value());
  CHECK(*all_ended);
  CHECK(finished == 3);
  CHECK(group.size() == 0);
}

TEST_CASE("wait on an empty group returns true at once") {
  asio::io_context io;
  net::task_group group(io.get_executor());
  std::optional<bool> all_ended;
  asio::co_spawn(
      io, [&]() -> net::awaitable<void> { all_ended = co_await group.wait(net::steady_clock::now()); },
      asio::detached);
  io.run();
  REQUIRE(all_ended.has_value());
  CHECK(*all_ended);
}

TEST_CASE("wait gives up at its deadline while a task still runs") {
  asio::io_context io;
  net::task_group group(io.get_executor());
  asio::steady_timer forever(io, asio::steady_timer::time_point::max());
  bool task_saw_abort = false;
  // Named, not a temporary: a coroutine lambda's captures live in the lambda object, which
  // must outlive the coroutine (here, io.run()).
  auto waits_forever = [&]() -> net::awaitable<void> {
    auto [ec] = co_await forever.async_wait(net::as_value);
    task_saw_abort = ec == asio::error::operation_aborted;
  };
  group.spawn(waits_forever(), "waits forever");
  std::optional<bool> first, second;
  asio::co_spawn(
      io,
      [&]() -> net::awaitable<void> {
        first = co_await group.wait(net::steady_clock::now() + 20ms);
        forever.cancel();
        second = co_await group.wait(net::steady_clock::now() + 60s);
      },
      asio::detached);
  io.run();
  REQUIRE(first.has_value());
  CHECK_FALSE(*first);
  REQUIRE(second.has_value());
  CHECK(*second);
  CHECK(task_saw_abort);
}

TEST_CASE("a closed group starts nothing new; what runs goes on and is still awaited") {
  asio::io_context io;
  net::task_group group(io.get_executor());
  asio::steady_timer stop_signal(io, asio::steady_timer::time_point::max());
  bool loop_ended = false;
  // A loop its owner ends by cancelling the timer it waits on (as the config watcher is).
  // (Named lambdas: their captures must outlive the coroutines.)
  auto loop = [&]() -> net::awaitable<void> {
    for (;;) {
      auto [ec] = co_await stop_signal.async_wait(net::as_value);
      if (ec) break;
    }
    loop_ended = true;
  };
  group.spawn(loop(), "loop");
  bool late_started = true, late_ran = false;
  auto late = [&]() -> net::awaitable<void> {
    late_ran = true;
    co_return;
  };
  std::optional<bool> all_ended;
  asio::co_spawn(
      io,
      [&]() -> net::awaitable<void> {
        group.close();
        late_started = group.spawn(late(), "late");
        stop_signal.cancel();
        all_ended = co_await group.wait(net::steady_clock::now() + 60s);
      },
      asio::detached);
  io.run();
  CHECK(group.closed());
  CHECK_FALSE(late_started);
  CHECK_FALSE(late_ran);
  CHECK(loop_ended);
  REQUIRE(all_ended.has_value());
  CHECK(*all_ended);
}

TEST_CASE("close runs each stop action still registered, once; a closed group runs a new one at once") {
  asio::io_context io;
  net::task_group group(io.get_executor());
  int kept = 0, dropped = 0, late = 0;
  auto kept_registration = group.on_close([&] { ++kept; });
  {
    auto gone = group.on_close([&] { ++dropped; });
  }
  auto moved = group.on_close([&] { ++kept; });
  net::task_group::stop_registration holder = std::move(moved);
  group.close();
  group.close();
  CHECK(kept == 2);
  CHECK(dropped == 0);
  auto after = group.on_close([&] { ++late; });
  CHECK(late == 1);
}

TEST_CASE("failure_text names what was thrown") {
  CHECK(net::failure_text(nullptr).empty());
  CHECK(net::failure_text(std::make_exception_ptr(std::runtime_error("disk full"))) == "disk full");
  CHECK(net::failure_text(std::make_exception_ptr(42)) == "unknown exception");
}
