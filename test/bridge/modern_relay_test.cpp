// The stdio bridge's 2026-07-28 relay headers.
#include <doctest/doctest.h>

#include "bridge/modern_relay.hpp"

using namespace opentabs::bridge;

TEST_CASE("a stdin request with a _meta protocol version gets the 2026-07-28 headers") {
  auto probe = modern_request_headers(
      R"({"jsonrpc":"2.0","id":"server-discover-probe-1","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}})");
  REQUIRE(probe);
  CHECK(*probe == header_pairs{{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", "server/discover"}});

  auto call = modern_request_headers(
      R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slack_send_message","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}})");
  REQUIRE(call);
  CHECK(call->back() == std::pair<std::string, std::string>{"Mcp-Name", "slack_send_message"});
}

TEST_CASE("lines that are not 2026-07-28 requests take the session path") {
  CHECK_FALSE(modern_request_headers(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})"));
  CHECK_FALSE(modern_request_headers(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}})"));
  CHECK_FALSE(modern_request_headers(R"({"io.modelcontextprotocol/protocolVersion": not json)"));
}

TEST_CASE("header values outside plain ASCII use the Base64 sentinel") {
  CHECK(header_safe_value("us-west1") == "us-west1");
  CHECK(header_safe_value("Hello, 世界") == "=?base64?SGVsbG8sIOS4lueVjA==?=");
  CHECK(header_safe_value(" padded ") == "=?base64?IHBhZGRlZCA=?=");
  CHECK(header_safe_value("line1\nline2") == "=?base64?bGluZTEKbGluZTI=?=");
  CHECK(header_safe_value("=?base64?literal?=") == "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
}

TEST_CASE("notifications/cancelled on stdin: the request it names, for the bridge to close") {
  auto id = cancelled_request_id(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"user"}})");
  REQUIRE(id);
  CHECK(id->as_int64() == 7);
  auto text = cancelled_request_id(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"call-1"}})");
  REQUIRE(text);
  CHECK(text->as_string() == "call-1");
  CHECK_FALSE(cancelled_request_id(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{}})"));
  CHECK_FALSE(cancelled_request_id(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{"x":1}}})"));
  CHECK_FALSE(cancelled_request_id(R"({"jsonrpc":"2.0","id":3,"method":"notifications/cancelled","params":{"requestId":7}})"));
  CHECK_FALSE(cancelled_request_id(R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"requestId":7,"note":"notifications/cancelled"}})"));
  CHECK_FALSE(cancelled_request_id("not json notifications/cancelled"));
}
