// Real child processes (POSIX sh and coreutils) run through run_process on a real
// io_context: exit codes, both streams, bounded output, the deadline that kills the whole
// process group, a missing program, and a launcher left running.
// The cases drive sh and sleep, POSIX programs; platform's suite runs the Windows child
// process code.
#if !defined(_WIN32)
#include <doctest/doctest.h>

#include <signal.h>

#include <chrono>
#include <fstream>
#include <thread>
#include <optional>

#include "app/child_process.hpp"

using namespace opentabs;
using namespace opentabs::app;
using namespace std::chrono_literals;

namespace {

result<process_outcome> run(std::vector<std::string> argv, process_options o = {}) {
  asio::io_context io;
  net::task_group background(io.get_executor());
  std::optional<result<process_outcome>> got;
  asio::co_spawn(
      io, [&]() -> net::awaitable<void> { got.emplace(co_await run_process(background, argv, o)); },
      asio::detached);
  io.run();
  REQUIRE(got.has_value());
  return std::move(*got);
}

// Running (a zombie waiting for whoever adopted it counts as gone).
bool pid_alive(long pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  auto close = line.rfind(')');
  return close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z';
}

}  // namespace

TEST_CASE("exit code, stdout and stderr are reported separately") {
  auto r = run({"sh", "-c", "printf out; printf err >&2; exit 3"});
  REQUIRE(r);
  CHECK(r->exit_code == 3);
  CHECK_FALSE(r->timed_out);
  CHECK(r->out == "out");
  CHECK(r->err == "err");
}

TEST_CASE("arguments are passed as they are, never through a shell") {
  auto r = run({"printf", "%s|", "a b", "$(id)", ";", "*"});
  REQUIRE(r);
  CHECK(r->exit_code == 0);
  CHECK(r->out == "a b|$(id)|;|*|");
}

TEST_CASE("stdin is /dev/null: a reader of stdin sees end of file at once") {
  auto r = run({"cat"});
  REQUIRE(r);
  CHECK(r->exit_code == 0);
  CHECK(r->out.empty());
}

TEST_CASE("output beyond the bound is drained and dropped") {
  process_options o;
  o.max_output_bytes = 1000;
  auto r = run({"head", "-c", "3000000", "/dev/zero"}, o);
  REQUIRE(r);
  CHECK(r->exit_code == 0);  // the child was never blocked on a full pipe
  CHECK(r->out.size() == 1000);
  CHECK(r->out_truncated);
  CHECK_FALSE(r->err_truncated);
}

TEST_CASE("the deadline kills the child and everything it started") {
  process_options o;
  o.timeout = 300ms;
  // The grandchild writes its pid and then sleeps; both must be gone afterwards.
  auto r = run({"sh", "-c", "sleep 30 & echo $!; wait"}, o);
  REQUIRE(r);
  CHECK(r->timed_out);
  CHECK(r->exit_code == -1);
  long grandchild = std::stol(r->out);
  // SIGKILL went to the whole group; give the kernel a moment to finish the kill.
  for (int i = 0; i < 100 && pid_alive(grandchild); ++i) std::this_thread::sleep_for(10ms);
  CHECK_FALSE(pid_alive(grandchild));
}

TEST_CASE("a program that does not exist is an error value") {
  auto r = run({"opentabs-no-such-program-xyz"});
  REQUIRE_FALSE(r);
  CHECK(r.err().code() == "not_found");
}

TEST_CASE("a launcher still running at the deadline is left alone (kill_on_timeout false)") {
  process_options o;
  o.timeout = 200ms;
  o.kill_on_timeout = false;
  auto r = run({"sh", "-c", "echo $$; exec sleep 1"}, o);
  REQUIRE(r);
  CHECK(r->timed_out);
  // The io_context kept running until the background reaper collected the exit status.
  long pid = std::stol(r->out);
  CHECK_FALSE(pid_alive(pid));
}

TEST_CASE("closing the background group (shutdown) kills a running command and ends a launcher's reaper") {
  asio::io_context io;
  net::task_group background(io.get_executor());
  std::optional<result<process_outcome>> command, launcher;
  process_options kill_it;
  kill_it.timeout = 60s;
  process_options leave_it;
  leave_it.timeout = 100ms;
  leave_it.kill_on_timeout = false;
  std::vector<std::string> sleeper{"sleep", "30"}, launcher_argv{"sh", "-c", "echo $$; exec sleep 30"};
  asio::co_spawn(
      io, [&]() -> net::awaitable<void> { command.emplace(co_await run_process(background, sleeper, kill_it)); },
      asio::detached);
  asio::co_spawn(
      io,
      [&]() -> net::awaitable<void> {
        launcher.emplace(co_await run_process(background, launcher_argv, leave_it));
        background.close();  // the launcher's reaper is waiting now; the command still runs
      },
      asio::detached);
  io.run();  // returns once nothing waits any more: the close ended both waits
  REQUIRE(command.has_value());
  REQUIRE(*command);
  CHECK_FALSE((*command)->timed_out);
  CHECK((*command)->term_signal == SIGKILL);
  REQUIRE(launcher.has_value());
  REQUIRE(*launcher);
  CHECK((*launcher)->timed_out);
  CHECK(background.size() == 0);
  long pid = std::stol((*launcher)->out);
  CHECK(pid_alive(pid));  // left running, as at its deadline
  ::kill(static_cast<pid_t>(pid), SIGKILL);
}
#endif  // !_WIN32
