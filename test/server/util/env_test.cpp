// util/env: the one parser of integer settings from the environment (bounds, rejection of
// anything but digits, overflow, unset versus bad).
#include <doctest/doctest.h>

#include <cstdlib>
#include <limits>

#include "test/support/test_os.hpp"
#include "util/env.hpp"

using namespace opentabs;
using opentabs::testing::set_env;
using opentabs::testing::unset_env;

TEST_CASE("parse_bounded_integer takes decimal digits within the bounds") {
  CHECK(*parse_bounded_integer("0", 0, 10) == 0);
  CHECK(*parse_bounded_integer("10", 0, 10) == 10);
  CHECK(*parse_bounded_integer("007", 1, 10) == 7);
  CHECK(*parse_bounded_integer("9223372036854775807", 0, std::numeric_limits<std::int64_t>::max()) ==
        std::numeric_limits<std::int64_t>::max());
}

TEST_CASE("parse_bounded_integer refuses what is not such an integer, saying why") {
  auto too_large = parse_bounded_integer("11", 0, 10);
  REQUIRE_FALSE(too_large);
  CHECK(too_large.err().is(errc::invalid_params));
  CHECK(too_large.err().message == "\"11\" is too large, expected an integer from 0 to 10");
  CHECK(parse_bounded_integer("0", 1, 10).err().message == "\"0\" is too small, expected an integer from 1 to 10");
  CHECK(parse_bounded_integer("7", 0, 5).err().message.find("too large") != std::string::npos);
  CHECK(parse_bounded_integer("", 0, 10).err().message.find("empty") != std::string::npos);
  for (const char* bad : {"-1", "+1", " 1", "1 ", "1e3", "0x10", "12ms", "1.5"})
    CHECK_MESSAGE(parse_bounded_integer(bad, 0, 1000).err().message.find("not a whole decimal number") !=
                      std::string::npos,
                  bad);
  // Longer than any int64: refused, not wrapped around.
  CHECK_FALSE(parse_bounded_integer("99999999999999999999999", 0, std::numeric_limits<std::int64_t>::max()));
  // Control characters in the value are not echoed.
  CHECK(parse_bounded_integer("1\n2", 0, 100).err().message.find('\n') == std::string::npos);
}

TEST_CASE("read_env_integer: unset or empty is no value, a bad value is an error naming the variable") {
  unset_env("OPENTABS_TEST_ENV_INTEGER");
  CHECK(read_env_integer("OPENTABS_TEST_ENV_INTEGER", 1, 100)->has_value() == false);
  set_env("OPENTABS_TEST_ENV_INTEGER", "");
  CHECK(read_env_integer("OPENTABS_TEST_ENV_INTEGER", 1, 100)->has_value() == false);
  set_env("OPENTABS_TEST_ENV_INTEGER", "42");
  CHECK(read_env_integer("OPENTABS_TEST_ENV_INTEGER", 1, 100)->value() == 42);
  CHECK(env_integer("OPENTABS_TEST_ENV_INTEGER", 1, 100) == 42);
  set_env("OPENTABS_TEST_ENV_INTEGER", "420");
  auto bad = read_env_integer("OPENTABS_TEST_ENV_INTEGER", 1, 100);
  REQUIRE_FALSE(bad);
  CHECK(bad.err().message == "OPENTABS_TEST_ENV_INTEGER=\"420\" is too large, expected an integer from 1 to 100");
  // The knob form falls back to the default (and logs a warning).
  CHECK_FALSE(env_integer("OPENTABS_TEST_ENV_INTEGER", 1, 100).has_value());
  unset_env("OPENTABS_TEST_ENV_INTEGER");
}
