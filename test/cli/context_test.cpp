// Port precedence: --port → OPENTABS_PORT → config.json "port" → 9515, with errors that
// name the source of a bad value.
#include <doctest/doctest.h>

#include "cli/context.hpp"

using namespace opentabs::cli;

TEST_CASE("precedence") {
  CHECK(resolve_port("9601", "9602", 9603)->port == 9601);
  CHECK(resolve_port("9601", "9602", 9603)->source == "--port");
  CHECK(resolve_port(std::nullopt, "9602", 9603)->port == 9602);
  CHECK(resolve_port(std::nullopt, "9602", 9603)->source == "OPENTABS_PORT");
  CHECK(resolve_port(std::nullopt, std::nullopt, 9603)->port == 9603);
  CHECK(resolve_port(std::nullopt, "", 9603)->source == "config.json");
  CHECK(resolve_port(std::nullopt, std::nullopt, std::nullopt)->port == 9515);
  CHECK(resolve_port(std::nullopt, std::nullopt, std::nullopt)->source == "default");
  // PORT (the server's variable) is named as the source when it was the one used.
  CHECK(resolve_port(std::nullopt, "9604", 9603, false, "PORT")->source == "PORT");
  CHECK(resolve_port(std::nullopt, "x", 9603, false, "PORT").err().message.find("from PORT") != std::string::npos);
}

TEST_CASE("bad values name where they came from") {
  auto a = resolve_port("70000", std::nullopt, std::nullopt);
  REQUIRE_FALSE(a.ok());
  CHECK(a.err().message.find("from --port") != std::string::npos);
  auto b = resolve_port(std::nullopt, "abc", std::nullopt);
  REQUIRE_FALSE(b.ok());
  CHECK(b.err().message.find("OPENTABS_PORT") != std::string::npos);
  auto c = resolve_port(std::nullopt, std::nullopt, 0);
  REQUIRE_FALSE(c.ok());
  CHECK(c.err().message.find("config.json") != std::string::npos);
  CHECK_FALSE(parse_port("0", "--port").ok());
  CHECK(parse_port("0", "--port", true).ok());
  CHECK_FALSE(parse_port("12x", "--port").ok());
}
