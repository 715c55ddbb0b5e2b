// Params parsing: each bad field is named in the -32602 message.
#include <doctest/doctest.h>

#include "mcp/requests.hpp"

using namespace opentabs;
using namespace opentabs::mcp;

namespace {
json::object o(std::string_view text) { return *json::parse_object(text); }
}  // namespace

TEST_CASE("initialize params") {
  auto ok = parse_initialize(o(R"({"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}})"));
  REQUIRE(ok);
  CHECK(ok.value->protocol_version == "2025-11-25");
  CHECK(ok.value->client_name == "c");
  auto no_version = parse_initialize(o(R"({"capabilities":{},"clientInfo":{"name":"c","version":"1"}})"));
  CHECK(no_version.error.code == rpc_code::invalid_params);
  CHECK(no_version.error.message.find("params.protocolVersion") != std::string::npos);
  auto bad_info = parse_initialize(o(R"({"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":3,"version":"1"}})"));
  CHECK(bad_info.error.message.find("params.clientInfo.name") != std::string::npos);
  auto bad_caps = parse_initialize(o(R"({"protocolVersion":"2025-11-25","capabilities":[],"clientInfo":{"name":"c","version":"1"}})"));
  CHECK(bad_caps.error.message.find("params.capabilities") != std::string::npos);
}

TEST_CASE("tools/call params") {
  auto ok = parse_tools_call(o(R"({"name":"t","arguments":{"a":1},"_meta":{"progressToken":"p1"}})"));
  REQUIRE(ok);
  CHECK(ok.value->name == "t");
  CHECK(ok.value->arguments.at("a").as_int64() == 1);
  CHECK(ok.value->progress_token.as_string() == "p1");
  auto int_token = parse_tools_call(o(R"({"name":"t","_meta":{"progressToken":4}})"));
  CHECK(int_token.value->progress_token.as_int64() == 4);
  CHECK(parse_tools_call(o(R"({"name":"t"})")).value->arguments.empty());

  CHECK(parse_tools_call(o(R"({})")).error.message.find("params.name is required") != std::string::npos);
  CHECK(parse_tools_call(o(R"({"name":1})")).error.message.find("params.name must be a string") != std::string::npos);
  CHECK(parse_tools_call(o(R"({"name":""})")).error.message.find("params.name") != std::string::npos);
  CHECK(parse_tools_call(o(R"({"name":"t","arguments":[1]})")).error.message.find("params.arguments") != std::string::npos);
  CHECK(parse_tools_call(o(R"({"name":"t","_meta":{"progressToken":true}})")).error.message.find("params._meta.progressToken") != std::string::npos);
}

TEST_CASE("tools/list rejects cursors we never issued") {
  CHECK(parse_tools_list(o("{}")));
  auto bad = parse_tools_list(o(R"({"cursor":"abc"})"));
  CHECK(bad.error.code == rpc_code::invalid_params);
  CHECK(bad.error.message.find("params.cursor") != std::string::npos);
}

TEST_CASE("logging/setLevel and notifications/cancelled") {
  CHECK(parse_set_level(o(R"({"level":"warning"})")).value->level == log_level::warning);
  auto bad = parse_set_level(o(R"({"level":"loud"})"));
  CHECK(bad.error.message.find("params.level") != std::string::npos);
  CHECK(bad.error.message.find("loud") != std::string::npos);
  CHECK(parse_cancelled(o(R"({"requestId":3,"reason":"x"})"))->as_int64() == 3);
  CHECK_FALSE(parse_cancelled(o(R"({"reason":"x"})")));
  CHECK_FALSE(parse_cancelled(o(R"({"requestId":{}})")));
}
