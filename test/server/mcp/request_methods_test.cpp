// The MCP request table: which methods each endpoint answers, and how a finished
// tools/call becomes its response.
#include <doctest/doctest.h>

#include "mcp/request_methods.hpp"

#include <list>

using namespace opentabs;
using namespace opentabs::mcp;

namespace {

class no_tools : public tools::tool_service {
 public:
  std::vector<tools::listed_tool> list_tools() const override { return {}; }
  asio::awaitable<tools::call_result> call_tool(std::string, json::object, tools::call_options) override {
    co_return tools::call_result::text("unused");
  }
};

request_result unused_call(request_context) { co_return std::nullopt; }

class two_tools : public no_tools {
 public:
  std::vector<tools::listed_tool> list_tools() const override {
    return {{"notes_echo", "Echo \"text\"\n", json::object{{"type", "object"}}, "notes"},
            {"browser_list_tabs", "", json::object{{"type", "object"}}, "browser"}};
  }
};

}  // namespace

TEST_CASE("/mcp answers logging/setLevel; the gateway does not") {
  no_tools service;
  tool_catalog catalog(service);
  auto mcp = make_request_methods(false, catalog, unused_call);
  auto gw = make_request_methods(true, catalog, unused_call);
  CHECK(mcp.names() == std::vector<std::string>{"initialize", "logging/setLevel", "ping", "tools/call", "tools/list"});
  CHECK(gw.names() == std::vector<std::string>{"initialize", "ping", "tools/call", "tools/list"});
  CHECK(mcp.find("tools/call", true));
  CHECK_FALSE(mcp.find("tools/call", false));  // a notification is never a call
  CHECK_FALSE(gw.find("logging/setLevel"));
}

TEST_CASE("an unknown tool is -32602 on /mcp and a tool result through the gateway") {
  auto unknown = tools::call_result::text("Tool nope not found", true, errc::not_found);
  CHECK(tools_call_response(json::value(4), unknown, false) ==
        R"({"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Tool nope not found"}})");
  CHECK(tools_call_response(json::value(4), unknown, true) ==
        R"({"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"Tool nope not found"}],"isError":true}})");
  auto failed = tools::call_result::text("denied", true, errc::tool_failed);
  CHECK(tools_call_response(json::value("a"), failed, false) ==
        R"({"jsonrpc":"2.0","id":"a","result":{"content":[{"type":"text","text":"denied"}],"isError":true}})");
}

TEST_CASE("a call that needs input answers an InputRequiredResult; a refused retry is a -32602 error, on both endpoints") {
  tools::call_result asking;
  asking.input_required = json::object{{"inputRequests", json::object{{"q", json::object{{"method", "elicitation/create"}}}}}, {"requestState", "s.t"}};
  for (bool gateway : {false, true}) {
    auto answer = json::parse_object(tools_call_response(json::value(3), asking, gateway, true));
    REQUIRE(answer);
    const auto& result = answer->at("result").as_object();
    CHECK(result.at("resultType").as_string() == "input_required");
    CHECK(result.at("requestState").as_string() == "s.t");
    CHECK(result.contains("inputRequests"));
    CHECK_FALSE(result.contains("content"));
    auto refused = tools::call_result::text("params.requestState has expired; call again", true, errc::invalid_params);
    auto error = json::parse_object(tools_call_response(json::value(4), refused, gateway, true));
    REQUIRE(error);
    CHECK(error->at("error").at("code").as_int64() == -32602);
    CHECK(error->at("error").at("message").as_string().find("requestState has expired") != std::string::npos);
  }
}

// tools_call_response writes the result as text: the bytes must be those of
// response_json(id, result.to_json()), the object form it replaced.
TEST_CASE("tools_call_response writes exactly the object form of a CallToolResult response") {
  std::vector<tools::call_result> results = {
      tools::call_result::text("plain"),
      tools::call_result::text("{\"ok\":true,\"s\":\"é \\\"q\\\" \\n\"}\n\ttab \x01 \xf0\x9f\x99\x82", false),
      tools::call_result::text("failed: </script>", true, errc::tool_failed),
      tools::call_result{},
  };
  results.back().content.push_back(json::object{{"type", "image"}, {"data", "AAAA"}, {"mimeType", "image/png"}});
  results.back().content.push_back(json::object{{"type", "text"}, {"text", json::str(std::string(5000, 'x'))}});
  for (const auto& r : results)
    for (const json::value& id : {json::value(7), json::value("id \"quoted\""), json::value(-1), json::value(std::uint64_t(18446744073709551615ull))})
      for (bool gateway : {false, true})
        CHECK(tools_call_response(id, r, gateway) == jsonrpc::response_json(id, r.to_json()));
}

TEST_CASE("the split tools/list response is the bytes of response_json, with the cached listing shared") {
  two_tools service;
  tool_catalog catalog(service);
  for (const json::value& id : {json::value(7), json::str("req \"1\""), json::value(nullptr)}) {
    auto split = catalog.tools_list_response(id);
    CHECK(split.before + *split.listing + split.after == jsonrpc::response_json(id, catalog.tools_list_result()));
    CHECK(split.listing->data() == catalog.tools_list_result().data());  // the cache itself, not a copy
  }
  auto first = catalog.tools_list_response(json::value(1)).listing;
  catalog.invalidate();
  auto second = catalog.tools_list_response(json::value(1)).listing;
  CHECK(first != second);  // a new generation is a new string; the old one stays whole for its holders
  CHECK(*first == *second);
}

TEST_CASE("tools/list is answered from the cached listing on /mcp only, and only with valid params") {
  std::list<json::value> keep;  // a message's params() points into its value
  auto message = [&](std::string_view text) {
    keep.push_back(*json::parse(text));
    auto c = jsonrpc::classify(keep.back());
    REQUIRE(c);
    return *c.msg;
  };
  CHECK(answers_from_cached_listing(false, message(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})")));
  CHECK(answers_from_cached_listing(false, message(R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}})")));
  // A cursor this server never issued is refused through the ordinary path (its error).
  CHECK_FALSE(answers_from_cached_listing(false, message(R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"x"}})")));
  CHECK_FALSE(answers_from_cached_listing(true, message(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})")));
  CHECK_FALSE(answers_from_cached_listing(false, message(R"({"jsonrpc":"2.0","method":"tools/list"})")));
  CHECK_FALSE(answers_from_cached_listing(false, message(R"({"jsonrpc":"2.0","id":1,"method":"ping"})")));
}
