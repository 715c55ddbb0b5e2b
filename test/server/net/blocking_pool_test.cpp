// blocking_pool: run() hands work to a worker and resumes the caller on the io thread; a
// task that hangs holds its worker only, never the io thread.  The hanging task waits on a
// promise the test releases; nothing here is timed.
#include "net/blocking_pool.hpp"

#include <doctest/doctest.h>

#include <future>
#include <optional>
#include <stdexcept>
#include <thread>

using namespace opentabs;

namespace {

// Runs the io_context until `done` says so (each run_one waits for the next handler).
template <class Done>
void run_until(asio::io_context& io, Done done) {
  while (!done()) {
    if (io.stopped()) io.restart();
    io.run_one();
  }
}

}  // namespace

TEST_CASE("blocking_pool: run() runs fn on a worker and resumes on the io thread with its value") {
  asio::io_context io;
  net::blocking_pool pool(io.get_executor(), 1, 1);
  const auto io_thread = std::this_thread::get_id();
  std::optional<std::thread::id> ran_on, resumed_on;
  std::optional<int> value;
  asio::co_spawn(io, [&]() -> net::awaitable<void> {
    auto five = [&] {
      ran_on = std::this_thread::get_id();
      return 5;
    };
    value = co_await pool.run(five);
    resumed_on = std::this_thread::get_id();
  }, asio::detached);
  run_until(io, [&] { return value.has_value(); });
  CHECK(*value == 5);
  CHECK(*ran_on != io_thread);
  CHECK(*resumed_on == io_thread);
}

TEST_CASE("blocking_pool: a void fn, and an exception rethrown in the caller") {
  asio::io_context io;
  net::blocking_pool pool(io.get_executor(), 1, 1);
  bool ran = false, caught = false, finished = false;
  asio::co_spawn(io, [&]() -> net::awaitable<void> {
    auto note = [&] { ran = true; };
    co_await pool.run(note);
    auto fail = []() -> int { throw std::runtime_error("disk gone"); };
    try {
      co_await pool.run(fail);
    } catch (const std::runtime_error& e) {
      caught = std::string(e.what()) == "disk gone";
    }
    finished = true;
  }, asio::detached);
  run_until(io, [&] { return finished; });
  CHECK(ran);
  CHECK(caught);
}

TEST_CASE("blocking_pool: a task that hangs does not hold the io thread; the other worker and the io thread go on") {
  asio::io_context io;
  net::blocking_pool pool(io.get_executor(), 2, 1);
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  bool hung_done = false, quick_done = false, io_work_done = false;
  asio::co_spawn(io, [&, released]() -> net::awaitable<void> {
    auto hang = [released] { released.wait(); };
    co_await pool.run(hang);
    hung_done = true;
  }, asio::detached);
  asio::co_spawn(io, [&]() -> net::awaitable<void> {
    auto quick = [] {};
    co_await pool.run(quick);
    quick_done = true;
  }, asio::detached);
  asio::post(io, [&] { io_work_done = true; });
  // The io thread runs other handlers and finishes other work while one task still hangs.
  run_until(io, [&] { return quick_done && io_work_done; });
  CHECK_FALSE(hung_done);
  release.set_value();
  run_until(io, [&] { return hung_done; });
}

TEST_CASE("blocking_pool: its bounded calls are bounded by the limit it was built with") {
  asio::io_context io;
  net::blocking_pool pool(io.get_executor(), 1, 3);
  CHECK(pool.bounded().max_stuck() == 3);
  auto r = pool.bounded().call<int>("k", [] { return 1; }, std::chrono::milliseconds(60'000));
  REQUIRE(r);
  CHECK(*r == 1);
}
