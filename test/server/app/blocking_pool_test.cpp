// blocking_pool: a job runs on a pool thread and the awaiting coroutine resumes on its own
// io thread with the job's value or exception; submit hands a future.
#include "app/blocking_pool.hpp"

#include <doctest/doctest.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

using namespace opentabs;

TEST_CASE("run: the job runs off the io thread and its value comes back on it") {
  asio::io_context io;
  app::blocking_pool pool(2);
  const auto io_thread = std::this_thread::get_id();
  std::thread::id job_thread, resumed_on;
  std::optional<std::string> value;
  asio::co_spawn(
      io,
      [&]() -> net::awaitable<void> {
        value = co_await pool.run([&] {
          job_thread = std::this_thread::get_id();
          return std::string("read");
        });
        resumed_on = std::this_thread::get_id();
      },
      asio::detached);
  io.run();
  REQUIRE(value.has_value());
  CHECK(*value == "read");
  CHECK(job_thread != io_thread);
  CHECK(resumed_on == io_thread);
}

TEST_CASE("run: what the job throws is thrown in the awaiting coroutine") {
  asio::io_context io;
  app::blocking_pool pool(1);
  std::string caught;
  bool void_job_ran = false;
  asio::co_spawn(
      io,
      [&]() -> net::awaitable<void> {
        co_await pool.run([&] { void_job_ran = true; });
        try {
          co_await pool.run([]() -> int { throw std::runtime_error("disk gone"); });
        } catch (const std::runtime_error& e) {
          caught = e.what();
        }
      },
      asio::detached);
  io.run();
  CHECK(void_job_ran);
  CHECK(caught == "disk gone");
}

TEST_CASE("submit: the future is ready once the job has ended") {
  app::blocking_pool pool(1);
  auto done = pool.submit([] { return 42; });
  CHECK(done.get() == 42);
}
