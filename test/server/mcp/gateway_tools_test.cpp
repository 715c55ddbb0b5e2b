// The gateway's two meta-tools: listing and argument parsing.
#include <doctest/doctest.h>

#include "mcp/gateway_tools.hpp"

using namespace opentabs;
using namespace opentabs::mcp;

namespace {
json::object o(std::string_view text) { return *json::parse_object(text); }
}  // namespace

TEST_CASE("tools/list has exactly the two meta-tools") {
  auto list = *json::parse_object(gateway::tools_list_result());
  const auto& tools = list.at("tools").as_array();
  REQUIRE(tools.size() == 2);
  CHECK(tools[0].at("name").as_string() == "opentabs_list_tools");
  CHECK(tools[1].at("name").as_string() == "opentabs_call");
  CHECK(tools[1].at("inputSchema").at("required").as_array()[0].as_string() == "tool");
  for (const auto& t : tools) CHECK_FALSE(t.at("description").as_string().empty());
}

TEST_CASE("opentabs_list_tools arguments") {
  CHECK_FALSE(gateway::parse_list_arguments(o("{}"))->has_value());
  CHECK(**gateway::parse_list_arguments(o(R"({"plugin":"notes"})")) == "notes");
  auto bad = gateway::parse_list_arguments(o(R"({"plugin":3})"));
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.err().message.find("plugin: must be a string") != std::string::npos);
  CHECK_FALSE(gateway::parse_list_arguments(o(R"({"other":1})")).ok());
}

TEST_CASE("opentabs_call arguments") {
  auto ok = gateway::parse_call_arguments(o(R"({"tool":"notes_list","arguments":{"q":"x"}})"));
  REQUIRE(ok.ok());
  CHECK(ok->tool == "notes_list");
  CHECK(ok->arguments.at("q").as_string() == "x");
  CHECK(gateway::parse_call_arguments(o(R"({"tool":"t"})"))->arguments.empty());
  auto missing = gateway::parse_call_arguments(o("{}"));
  CHECK(missing.err().message == "Invalid arguments for tool \"opentabs_call\":\n  - tool: is required");
  CHECK(gateway::parse_call_arguments(o(R"({"tool":"t","arguments":"x"})")).err().message.find("arguments: must be an object") != std::string::npos);
}
