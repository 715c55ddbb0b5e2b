// server.pid in both accepted forms, and refusals.
#include <doctest/doctest.h>

#include "cli/pid_file.hpp"

using namespace opentabs::cli;

TEST_CASE("JSON and plain forms round-trip") {
  auto a = parse_pid_file("{\"pid\":1234,\"port\":9515}\n");
  REQUIRE(a.ok());
  CHECK(a->pid == 1234);
  CHECK(a->port == 9515);
  auto b = parse_pid_file("  4321 \n");
  REQUIRE(b.ok());
  CHECK(b->pid == 4321);
  CHECK_FALSE(b->port.has_value());
  CHECK(format_pid_file({77, 9600}) == "{\"pid\":77,\"port\":9600}");
  CHECK(parse_pid_file(format_pid_file({77, 9600}))->pid == 77);
}

TEST_CASE("garbage, zero and negative pids are refused") {
  for (const char* t : {"", "abc", "{\"pid\":0}", "{\"pid\":-5}", "-5", "{\"port\":1}", "{bad"}) {
    auto r = parse_pid_file(t);
    CHECK_FALSE(r.ok());
  }
}
