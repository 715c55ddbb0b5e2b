// event: notify_all wakes every coroutine waiting now and none that waits later; wait_until
// tells a notify from its deadline.
#include "net/event.hpp"

#include <doctest/doctest.h>

#include <optional>

using namespace opentabs;
using namespace std::chrono_literals;

namespace {

// Runs what is ready; the io_context may run out of work, so it is made ready to run again.
void run_ready(asio::io_context& io) {
  io.poll();
  io.restart();
}

}  // namespace

TEST_CASE("notify_all wakes every waiter, and a later wait waits for the next notify") {
  asio::io_context io;
  net::event ev(io.get_executor());
  int woken = 0;
  for (int i = 0; i < 3; ++i)
    asio::co_spawn(
        io, [&]() -> net::awaitable<void> {
          co_await ev.wait();
          ++woken;
        },
        asio::detached);
  run_ready(io);
  CHECK(ev.waiting() == 3);
  CHECK(woken == 0);
  ev.notify_all();
  run_ready(io);
  CHECK(woken == 3);
  CHECK(ev.waiting() == 0);

  // A notify with nobody waiting is not remembered.
  ev.notify_all();
  bool late_woken = false;
  asio::co_spawn(
      io, [&]() -> net::awaitable<void> {
        co_await ev.wait();
        late_woken = true;
      },
      asio::detached);
  run_ready(io);
  CHECK_FALSE(late_woken);
  ev.notify_all();
  run_ready(io);
  CHECK(late_woken);
}

TEST_CASE("wait_until returns true when notified") {
  asio::io_context io;
  net::event ev(io.get_executor());
  std::optional<bool> notified;
  asio::co_spawn(
      io, [&]() -> net::awaitable<void> { notified = co_await ev.wait_until(net::steady_clock::now() + 1h); }, asio::detached);
  io.poll();
  ev.notify_all();
  io.run();
  REQUIRE(notified.has_value());
  CHECK(*notified);
}

TEST_CASE("wait_until returns false at its deadline when nobody notifies") {
  asio::io_context io;
  net::event ev(io.get_executor());
  std::optional<bool> notified;
  asio::co_spawn(
      io, [&]() -> net::awaitable<void> { notified = co_await ev.wait_until(net::steady_clock::now()); }, asio::detached);
  io.run();
  REQUIRE(notified.has_value());
  CHECK_FALSE(*notified);
  CHECK(ev.waiting() == 0);
}
