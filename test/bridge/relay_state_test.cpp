// The bridge's protocol bookkeeping: message kinds, error lines, one stdout line per
// message, what each HTTP status means, and the initialize replay.
#include <doctest/doctest.h>

#include "bridge/relay_state.hpp"
#include "net/net_failure.hpp"

using namespace opentabs;
using namespace opentabs::bridge;

TEST_CASE("classifying stdin messages") {
  auto req = read_client_message(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})", 1024);
  REQUIRE(req.ok());
  CHECK(req->kind == message_kind::request);
  CHECK(req->method == "tools/list");
  CHECK(req->id.as_int64() == 1);
  CHECK(read_client_message(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", 1024)->kind ==
        message_kind::notification);
  CHECK(read_client_message(R"({"jsonrpc":"2.0","id":"s1","result":{}})", 1024)->kind == message_kind::response);
  CHECK(read_client_message(R"([{"jsonrpc":"2.0","method":"x"}])", 1024)->kind == message_kind::batch);
  auto bad = read_client_message("{nope", 1024);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.err().code() == "parse_error");
  CHECK(bad.err().message.find("column") != std::string::npos);
  CHECK(read_client_message("42", 1024).err().code() == "invalid_request");
  CHECK(read_client_message(R"({"jsonrpc":"2.0","id":3})", 1024).err().code() == "invalid_request");
}

TEST_CASE("error lines and stdout lines are single compact lines") {
  CHECK(error_line(json::value(7), -32603, "Bridge proxy error: x") ==
        R"({"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"Bridge proxy error: x"}})");
  CHECK(error_line(nullptr, -32700, "Parse error") == R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}})");
  auto line = stdout_line("{\n  \"jsonrpc\": \"2.0\",\n  \"method\": \"a\\nb\"\n}");
  REQUIRE(line.ok());
  CHECK(line->find('\n') == std::string::npos);
  CHECK(*line == R"({"jsonrpc":"2.0","method":"a\nb"})");
  CHECK_FALSE(stdout_line("not json").ok());
  // The server broke the protocol: the client hears "unavailable", not an internal error.
  CHECK(stdout_line("not json").err().is(net::net_failure::bad_response));
  CHECK(stdout_line("not json").err().is(errc::unavailable));
}

TEST_CASE("a one-line payload and a stdin line are relayed byte for byte, not re-serialised") {
  // Re-serialising would write 1.0 as 1E0 and drop the duplicate key: what the peer sent
  // is what the other side gets.
  const std::string payload = R"({"jsonrpc":"2.0","id":1,"result":{"x":1.0,"y":"é","x":2}})";
  auto line = stdout_line(payload);
  REQUIRE(line.ok());
  CHECK(*line == payload);
  CHECK_FALSE(stdout_line(R"({"jsonrpc":"2.0","id":1,"result":{)").ok());  // still validated
  const std::string request = R"( {"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"arguments":{"n":1.0}}} )";
  auto msg = read_client_message(request, 1024);
  REQUIRE(msg.ok());
  CHECK(msg->text == request);
  CHECK(msg->method == "tools/call");
}

TEST_CASE("HTTP statuses map to relay actions") {
  CHECK(classify_post_status(200, true) == post_action::deliver);
  CHECK(classify_post_status(202, true) == post_action::accepted);
  CHECK(classify_post_status(404, true) == post_action::reinitialize);
  CHECK(classify_post_status(404, false) == post_action::fail);  // no session to lose
  CHECK(classify_post_status(401, true) == post_action::reload_secret);
  CHECK(classify_post_status(400, true) == post_action::fail);
  CHECK(classify_post_status(429, false) == post_action::fail);
}

TEST_CASE("initialize is remembered and replayed with a bridge-owned id; sessions bump generations") {
  session_state st;
  CHECK_FALSE(st.can_reinitialize());
  auto init = json::parse_object(
      R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}})");
  REQUIRE(init.ok());
  st.remember_initialize(*init);
  CHECK(st.can_reinitialize());
  auto r1 = st.replay_initialize();
  auto r2 = st.replay_initialize();
  CHECK(session_state::is_bridge_id(r1["id"]));
  CHECK(r1["id"] != r2["id"]);
  CHECK(json::dump(r1["params"]) == json::dump((*init)["params"]));
  CHECK_FALSE(session_state::is_bridge_id(json::value(0)));

  auto g0 = st.generation();
  st.set_session_id("abc");
  CHECK(st.generation() == g0 + 1);
  CHECK(st.session_id() == "abc");
  auto resp = json::parse_object(R"({"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18"}})");
  st.on_initialize_result(*resp);
  CHECK(st.protocol_version() == "2025-06-18");
  st.clear_session();
  CHECK(st.session_id().empty());
  CHECK(st.generation() == g0 + 2);
}
