// Accept/Content-Type rules, SSE framing and transport error bodies.
#include <doctest/doctest.h>

#include "mcp/streamable_http.hpp"

using namespace opentabs;
using namespace opentabs::mcp;

TEST_CASE("Accept matching with lists, wildcards and q=0") {
  CHECK(accepts("application/json, text/event-stream", "application/json"));
  CHECK(accepts("application/json, text/event-stream", "text/event-stream"));
  CHECK(accepts("text/event-stream;q=0.9, application/json", "text/event-stream"));
  CHECK(accepts("*/*", "text/event-stream"));
  CHECK(accepts("text/*", "text/event-stream"));
  CHECK_FALSE(accepts("text/*", "application/json"));
  CHECK_FALSE(accepts("application/json", "text/event-stream"));
  CHECK_FALSE(accepts("", "application/json"));
  CHECK_FALSE(accepts("text/event-stream;q=0, application/json", "text/event-stream"));
  CHECK(accepts("APPLICATION/JSON", "application/json"));
}

TEST_CASE("Content-Type must be JSON") {
  CHECK(is_json_content_type("application/json"));
  CHECK(is_json_content_type("application/json; charset=utf-8"));
  CHECK_FALSE(is_json_content_type("text/plain"));
  CHECK_FALSE(is_json_content_type(""));
}

TEST_CASE("an SSE event carries one message and cannot be split by a newline") {
  CHECK(sse_message_event(R"({"a":1})") == "event: message\ndata: {\"a\":1}\n\n");
  CHECK(sse_message_event("x\ny") == "event: message\ndata: x\ndata: y\n\n");
  CHECK(sse_keepalive_comment().front() == ':');
}

TEST_CASE("transport errors are id-less JSON-RPC errors with the status") {
  auto res = transport_error(404, rpc_error{rpc_code::session_not_found, "Session not found", nullptr});
  CHECK(res.status == 404);
  auto body = *json::parse_object(res.body);
  CHECK(body.at("id").is_null());
  CHECK(body.at("error").at("code").as_int64() == -32001);
  auto plain = transport_error(406, "Not Acceptable");
  CHECK(json::parse_object(plain.body)->at("error").at("code").as_int64() == -32000);
}

TEST_CASE("a POST body becomes messages, or the refusal to send") {
  auto one = read_post_messages(*json::parse(R"({"jsonrpc":"2.0","id":1,"method":"ping"})"), "2025-11-25", 100);
  CHECK_FALSE(one.refusal);
  CHECK_FALSE(one.batch);
  REQUIRE(one.items.size() == 1);
  CHECK(one.items[0]);

  auto bad = read_post_messages(*json::parse(R"({"jsonrpc":"1.0","id":3,"method":"ping"})"), "2025-11-25", 100);
  REQUIRE(bad.refusal);
  CHECK(bad.refusal->status == 400);
  CHECK(bad.refusal->body.find(R"("id":3)") != std::string::npos);

  const auto two = *json::parse(R"([{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"x"}])");
  auto refused = read_post_messages(two, "2025-11-25", 100);
  REQUIRE(refused.refusal);
  CHECK(refused.refusal->body.find("batches are not supported in protocol version 2025-11-25") != std::string::npos);

  auto batch = read_post_messages(two, "2025-03-26", 100);
  CHECK_FALSE(batch.refusal);
  CHECK(batch.batch);
  CHECK(batch.items.size() == 2);

  CHECK(read_post_messages(*json::parse("[]"), "2025-03-26", 100).refusal->body.find("empty batch") != std::string::npos);
  CHECK(read_post_messages(two, "2025-03-26", 1).refusal->body.find("batch of 2 messages exceeds the limit of 1") != std::string::npos);
  CHECK(jsonrpc::batch_json({R"({"a":1})", R"({"b":2})"}) == R"([{"a":1},{"b":2}])");
}
