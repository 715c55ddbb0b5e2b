// The stdio bridge's own answers: the same results the server gives, from the same code.
#include <doctest/doctest.h>

#include "bridge/local_answers.hpp"
#include "json/json.hpp"
#include "mcp/server_info.hpp"

using namespace opentabs;
using namespace opentabs::bridge;

namespace {

json::object parsed(const std::string& line) {
  auto v = json::parse_object(line);
  REQUIRE(v);
  return *v;
}

}  // namespace

TEST_CASE("server/discover is answered with the server's own discover result") {
  auto answer = discover_answer(
      R"({"jsonrpc":"2.0","id":"probe-1","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}})");
  REQUIRE(answer);
  auto v = parsed(*answer);
  CHECK(json::dump(v["id"]) == R"("probe-1")");
  REQUIRE(json::get_object(v, "result"));
  CHECK(json::dump(v["result"]) == json::dump(json::value(mcp::discover_result(false, OPENTABS_VERSION, true))));
  // The bridge relays to /mcp, which offers prompts (slash commands) and completion.
  CHECK(v["result"].at("capabilities").as_object().contains("prompts"));
  CHECK(v["result"].at("capabilities").as_object().contains("completions"));
}

TEST_CASE("a server/discover the server would refuse gets the server's refusal") {
  // No clientCapabilities in _meta: the revision requires it.
  auto answer = discover_answer(
      R"({"jsonrpc":"2.0","id":3,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}})");
  REQUIRE(answer);
  auto v = parsed(*answer);
  REQUIRE(json::get_object(v, "error"));
  CHECK(json::dump(v["id"]) == "3");
  auto unsupported = discover_answer(
      R"({"jsonrpc":"2.0","id":4,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2031-01-01","io.modelcontextprotocol/clientCapabilities":{}}}})");
  REQUIRE(unsupported);
  CHECK(json::get_object(parsed(*unsupported), "error"));
}

TEST_CASE("lines other than a server/discover request are left to the server") {
  CHECK_FALSE(discover_answer(R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}})"));
  CHECK_FALSE(discover_answer(R"({"jsonrpc":"2.0","method":"server/discover"})"));  // a notification
  CHECK_FALSE(discover_answer(R"({"note":"server/discover"})"));
  CHECK_FALSE(discover_answer("server/discover, not JSON"));
}

TEST_CASE("initialize is answered with the negotiated version and the server's initialize result") {
  auto request = parsed(
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})");
  auto answer = answer_initialize(request);
  CHECK(answer.accepted);
  auto v = parsed(answer.line);
  CHECK(json::dump(v["result"]) == json::dump(json::value(mcp::initialize_result(false, "2025-06-18", OPENTABS_VERSION, true))));
  CHECK(v["result"].at("capabilities").as_object().contains("prompts"));

  auto future = parsed(
      R"({"jsonrpc":"2.0","id":"x","method":"initialize","params":{"protocolVersion":"2099-01-01","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})");
  auto newest = parsed(answer_initialize(future).line);
  CHECK(json::dump(newest["result"].as_object()["protocolVersion"]) == R"("2025-11-25")");
}

TEST_CASE("an initialize the server would refuse gets its -32602 error and is not relayed") {
  auto request = parsed(R"({"jsonrpc":"2.0","id":9,"method":"initialize","params":{"protocolVersion":7}})");
  auto answer = answer_initialize(request);
  CHECK_FALSE(answer.accepted);
  auto v = parsed(answer.line);
  REQUIRE(json::get_object(v, "error"));
  CHECK(json::dump(v["error"].as_object()["code"]) == "-32602");
  CHECK(json::dump(v["id"]) == "9");
}
