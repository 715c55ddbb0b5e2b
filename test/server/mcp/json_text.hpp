// The MCP unit tests' reading of a response text: the JSON object it must be (the test
// fails at the line that asked when it is not).
#pragma once

#include <doctest/doctest.h>

#include <string_view>

#include "json/json.hpp"

namespace opentabs::mcp::testing {

inline json::object object_of(std::string_view text) {
  auto v = json::parse(text);
  REQUIRE(v);
  REQUIRE(v->is_object());
  return v->get_object();
}

}  // namespace opentabs::mcp::testing
