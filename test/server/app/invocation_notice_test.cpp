#include <doctest/doctest.h>

#include "app/invocation_notice.hpp"
#include "json/json.hpp"

using namespace opentabs;
using namespace opentabs::app;

TEST_CASE("invocation notices are the spec's JSON-RPC notifications, names escaped") {
  auto start = json::parse_object(invocation_start_json("my \"plugin\"", "tool\\é\n", 1700000000123));
  REQUIRE(start.ok());
  CHECK(*start == json::parse_object(
                      R"({"jsonrpc":"2.0","method":"tool.invocationStart","params":{"plugin":"my \"plugin\"","tool":"tool\\é\n","ts":1700000000123}})")
                      .value());
  auto end = json::parse_object(invocation_end_json("slack", "send_message", 42, false));
  REQUIRE(end.ok());
  CHECK(*end == json::parse_object(
                    R"({"jsonrpc":"2.0","method":"tool.invocationEnd","params":{"plugin":"slack","tool":"send_message","durationMs":42,"success":false}})")
                    .value());
  CHECK(json::parse_object(invocation_end_json("p", "t", 0, true))->at("params").at("success").as_bool());
}
