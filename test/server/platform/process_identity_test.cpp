// Tests for process identity: the opentabs-server rule (pure), the NUL-separated argument
// layout, and the live answers for this process and for a child before and after it exits.
#include "platform/process_identity.hpp"

#include <doctest/doctest.h>

#include <thread>

#include "platform/child_process.hpp"
#include "platform/executable_path.hpp"
#include "platform/os.hpp"

using namespace opentabs::platform;
using namespace std::chrono_literals;

TEST_CASE("an opentabs server is an opentabs program given the start command") {
  CHECK(command_line_is_opentabs_server({"/usr/bin/opentabs", "start", "--background"}));
  CHECK(command_line_is_opentabs_server({"opentabs", "--port", "1", "start"}));
  CHECK_FALSE(command_line_is_opentabs_server({"/usr/bin/opentabs", "status"}));
  CHECK_FALSE(command_line_is_opentabs_server({"/usr/bin/python3", "start"}));
  CHECK_FALSE(command_line_is_opentabs_server({"/usr/bin/opentabs"}));
  CHECK_FALSE(command_line_is_opentabs_server({}));
  // All Windows shows of another process is its image.
  CHECK(command_line_is_opentabs_server({"C:/Program Files/opentabs/opentabs.exe"}));
}

TEST_CASE("NUL-separated arguments split into words, a trailing NUL ending the last") {
  using namespace std::string_literals;
  CHECK(split_nul_separated("a\0bc\0"s) == std::vector<std::string>{"a", "bc"});
  CHECK(split_nul_separated("a\0\0b"s) == std::vector<std::string>{"a", "", "b"});
  CHECK(split_nul_separated("").empty());
}

TEST_CASE("this process is alive, has its own command line, and is no opentabs server") {
  long me = current_process_id();
  CHECK(me > 0);
  CHECK(process_alive(me));
  CHECK_FALSE(process_alive(0));
  CHECK_FALSE(process_alive(-5));
  auto args = process_command_line(me);
  REQUIRE(args);
  REQUIRE_FALSE(args->empty());
  std::error_code ec;
  auto exe = executable_path(ec);
  REQUIRE_FALSE(ec);
  CHECK(std::filesystem::path((*args)[0]).filename().string().find("test_platform") == 0);
  CHECK(exe.filename().string().find("test_platform") == 0);
  CHECK(exe.is_absolute());
  CHECK_FALSE(is_opentabs_server(me));
  CHECK_FALSE(is_opentabs_server(-1));
}

TEST_CASE("a child that has exited is not alive, reaped or not") {
  child_spec spec;
  spec.argv = current_os() == os::windows ? std::vector<std::string>{"cmd", "/d", "/c", "exit 0"}
                                          : std::vector<std::string>{"/bin/sh", "-c", "exit 0"};
  child c;
  REQUIRE_FALSE(spawn(spec, c));
  // Not reaped yet: a zombie on POSIX, which must not count as alive.  Bounded wait for it.
  auto deadline = std::chrono::steady_clock::now() + 10s;
  while (process_alive(c.pid()) && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(5ms);
  CHECK_FALSE(process_alive(c.pid()));
  CHECK(c.wait().code == 0);
}
