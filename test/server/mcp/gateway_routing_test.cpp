// Gateway routing without a socket: the listing meta-tool is answered from the catalog,
// opentabs_call names the tool to call, anything else is -32602.
#include <doctest/doctest.h>

#include "mcp/gateway_routing.hpp"

using namespace opentabs;
using namespace opentabs::mcp;

namespace {

class listed_only : public tools::tool_service {
 public:
  std::vector<tools::listed_tool> list_tools() const override {
    return {{"notes_echo", "Echo", json::object{{"type", "object"}}, "notes"},
            {"browser_list_tabs", "List tabs", json::object{{"type", "object"}}, "browser"}};
  }
  asio::awaitable<tools::call_result> call_tool(std::string, json::object, tools::call_options) override {
    co_return tools::call_result::text("not called in these tests", true);
  }
};

std::string text_of(const tools::call_result& r) {
  return std::string(r.content.at(0).as_object().at("text").as_string());
}

}  // namespace

TEST_CASE("opentabs_list_tools is answered from the catalog") {
  listed_only service;
  tool_catalog catalog(service);
  auto all = route_gateway_call(catalog, "opentabs_list_tools", {});
  REQUIRE(all.what == gateway_route::kind::answer);
  CHECK_FALSE(all.answer.is_error);
  CHECK(text_of(all.answer).find("notes_echo") != std::string::npos);

  auto missing = route_gateway_call(catalog, "opentabs_list_tools", json::object{{"plugin", "nope"}});
  REQUIRE(missing.what == gateway_route::kind::answer);
  CHECK(missing.answer.is_error);
  CHECK(missing.answer.failure == errc::not_found);
  CHECK(text_of(missing.answer) == "Plugin \"nope\" not found. Available plugins: notes, browser");

  auto bad = route_gateway_call(catalog, "opentabs_list_tools", json::object{{"plugin", 7}});
  REQUIRE(bad.what == gateway_route::kind::answer);
  CHECK(bad.answer.failure == errc::tool_failed);
}

TEST_CASE("opentabs_call forwards to the named tool; other names are protocol errors") {
  listed_only service;
  tool_catalog catalog(service);
  auto call = route_gateway_call(catalog, "opentabs_call", json::object{{"tool", "notes_echo"}, {"arguments", json::object{{"a", 1}}}});
  REQUIRE(call.what == gateway_route::kind::forward);
  CHECK(call.target.tool == "notes_echo");
  CHECK(json::dump(call.target.arguments) == R"({"a":1})");

  auto no_tool = route_gateway_call(catalog, "opentabs_call", {});
  REQUIRE(no_tool.what == gateway_route::kind::answer);
  CHECK(no_tool.answer.is_error);

  auto other = route_gateway_call(catalog, "notes_echo", {});
  REQUIRE(other.what == gateway_route::kind::error);
  CHECK(other.error.code == jsonrpc::rpc_code::invalid_params);
  CHECK(other.error.message == "Unknown gateway tool: notes_echo (this endpoint offers opentabs_list_tools and opentabs_call)");
}
