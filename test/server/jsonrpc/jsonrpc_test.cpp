// JSON-RPC classification and serialisation: every malformed shape gets the right code
// and, where it could be read, the request id.
#include <doctest/doctest.h>

#include "jsonrpc/jsonrpc.hpp"

using namespace opentabs;
using namespace opentabs::jsonrpc;

namespace {
json::value j(std::string_view text) { return *json::parse(text); }
}  // namespace

TEST_CASE("requests, notifications and responses are told apart") {
  auto r = classify(j(R"({"jsonrpc":"2.0","id":7,"method":"ping"})"));
  REQUIRE(r);
  CHECK(r.msg->kind == message_kind::request);
  CHECK(r.msg->id.as_int64() == 7);
  CHECK(r.msg->method == "ping");

  auto n = classify(j(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"));
  REQUIRE(n);
  CHECK(n.msg->kind == message_kind::notification);

  auto s = classify(j(R"({"jsonrpc":"2.0","id":"a","result":{}})"));
  REQUIRE(s);
  CHECK(s.msg->kind == message_kind::response);

  // params() views the classified value, which must outlive the message.
  const auto body = j(R"({"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"t"}})");
  auto p = classify(body);
  REQUIRE(p);
  CHECK(*json::get_string(p.msg->params(), "name") == "t");
  CHECK(&p.msg->params() == &body.get_object().at("params").get_object());
  CHECK(r.msg->params().empty());
}

TEST_CASE("wrong shapes are -32600 and keep a readable id") {
  auto not_object = classify(j("[1]"));
  CHECK_FALSE(not_object);
  CHECK(not_object.error.code == rpc_code::invalid_request);
  CHECK(not_object.id.is_null());

  auto bad_version = classify(j(R"({"jsonrpc":"1.0","id":3,"method":"ping"})"));
  CHECK(bad_version.error.code == rpc_code::invalid_request);
  CHECK(bad_version.id.as_int64() == 3);
  CHECK(bad_version.error.message.find("jsonrpc") != std::string::npos);

  auto method_number = classify(j(R"({"jsonrpc":"2.0","id":4,"method":5})"));
  CHECK(method_number.error.code == rpc_code::invalid_request);

  auto null_id = classify(j(R"({"jsonrpc":"2.0","id":null,"method":"ping"})"));
  CHECK(null_id.error.code == rpc_code::invalid_request);
  CHECK(null_id.id.is_null());

  auto fractional_id = classify(j(R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})"));
  CHECK(fractional_id.error.code == rpc_code::invalid_request);

  // Found by test/fuzz/mcp_message_fuzz.cpp: an integral double id beyond int64 was cast
  // to int64 (undefined behaviour); it is an invalid id now.
  auto huge_id = classify(j(R"({"jsonrpc":"2.0","id":1e24,"method":"ping"})"));
  CHECK(huge_id.error.code == rpc_code::invalid_request);
  CHECK(huge_id.id.is_null());
  auto large_id = classify(j(R"({"jsonrpc":"2.0","id":4e15,"method":"ping"})"));
  REQUIRE(large_id);
  CHECK(large_id.msg->id.as_int64() == 4'000'000'000'000'000);

  auto both = classify(j(R"({"jsonrpc":"2.0","id":1,"result":{},"error":{}})"));
  CHECK(both.error.code == rpc_code::invalid_request);
}

TEST_CASE("params that are not an object are -32602 naming params") {
  auto r = classify(j(R"({"jsonrpc":"2.0","id":9,"method":"tools/list","params":[1,2]})"));
  CHECK_FALSE(r);
  CHECK(r.error.code == rpc_code::invalid_params);
  CHECK(r.error.message.find("params") != std::string::npos);
  CHECK(r.id.as_int64() == 9);
}

TEST_CASE("serialisation is compact and keeps the id type") {
  CHECK(response_json(json::value(5), "{}") == R"({"jsonrpc":"2.0","id":5,"result":{}})");
  CHECK(response_json(json::str("a"), json::object{{"x", 1}}) == R"({"jsonrpc":"2.0","id":"a","result":{"x":1}})");
  auto e = error_json(nullptr, rpc_error::parse_error("line 1"));
  CHECK(e == R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: line 1"}})");
  auto ip = rpc_error::invalid_params("params.name", "is required");
  CHECK(ip.message == "Invalid params: params.name is required");
  CHECK(json::dump(ip.data) == R"({"field":"params.name"})");
  CHECK(notification_json("notifications/tools/list_changed") == R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed"})");
}

TEST_CASE("id keys do not confuse strings and numbers") {
  CHECK(id_key(json::value(1)) != id_key(json::str("1")));
  CHECK(id_key(json::value(1)) == id_key(json::value(1)));
}

TEST_CASE("error texts echo client-chosen names only in bounded form") {
  CHECK(rpc_error::method_not_found("resources/list").message == "Method not found: resources/list");
  auto long_name = rpc_error::method_not_found(std::string(5000, 'm'));
  CHECK(long_name.message.size() < 130);
  CHECK(long_name.message.substr(long_name.message.size() - 3) == "...");
}

TEST_CASE("a peer's envelope is told by its shape") {
  auto req = j(R"({"id":"1","method":"config.getState"})");
  auto e = classify_peer(req.get_object());
  CHECK(e.kind == envelope_kind::request);
  CHECK(e.method == "config.getState");
  REQUIRE(e.params_object());
  CHECK(e.params_object()->empty());

  auto note = j(R"({"jsonrpc":"2.0","method":"tab.syncAll","params":{"tabs":{}}})");
  e = classify_peer(note.get_object());
  CHECK(e.kind == envelope_kind::notification);
  REQUIRE(e.params_object());
  CHECK(e.params_object()->contains("tabs"));

  auto bad_params = j(R"({"id":2,"method":"m","params":[1]})");
  e = classify_peer(bad_params.get_object());
  CHECK(e.kind == envelope_kind::request);
  CHECK(e.params_object() == nullptr);

  auto err = j(R"({"id":"x","error":{"code":-32001,"message":"gone"}})");
  e = classify_peer(err.get_object());
  CHECK(e.kind == envelope_kind::response);
  REQUIRE(e.error);
  CHECK(json::get_int(*e.error, "code") == -32001);

  auto res = j(R"({"id":"x","result":null})");
  e = classify_peer(res.get_object());
  CHECK(e.kind == envelope_kind::response);
  CHECK(e.result);
  CHECK(e.error == nullptr);

  CHECK(classify_peer(j(R"({"id":"x"})").get_object()).kind == envelope_kind::invalid);
  CHECK(classify_peer(j(R"({"method":7,"id":1})").get_object()).kind == envelope_kind::invalid);
}

TEST_CASE("an id of null is a request id unless the peer's rules say it is absent") {
  auto v = j(R"({"id":null,"method":"ping"})");
  CHECK(classify_peer(v.get_object()).kind == envelope_kind::request);
  CHECK(classify_peer(v.get_object(), {.null_id_is_absent = true}).kind == envelope_kind::notification);
  auto r = j(R"({"id":null,"result":{}})");
  CHECK(classify_peer(r.get_object()).kind == envelope_kind::response);
  CHECK(classify_peer(r.get_object(), {.null_id_is_absent = true}).kind == envelope_kind::invalid);
}

TEST_CASE("error categories map to JSON-RPC codes in one place") {
  CHECK(code_for(errc::invalid_params) == -32602);
  CHECK(code_for(errc::not_found) == -32602);
  CHECK(code_for(errc::method_not_found) == -32601);
  CHECK(code_for(errc::invalid_request) == -32600);
  CHECK(code_for(errc::busy) == -32603);
  CHECK(code_for(errc::internal) == -32603);
  auto e = rpc_error::from(make_error(errc::invalid_params, "Invalid params: x must be a string"));
  CHECK(e.code == -32602);
  CHECK(e.message == "Invalid params: x must be a string");
}

TEST_CASE("messages are built as objects and as lines") {
  auto r = request_object(json::value("abc"), "tool.dispatch", json::object{{"a", 1}});
  CHECK(json::dump(r) == R"({"jsonrpc":"2.0","method":"tool.dispatch","params":{"a":1},"id":"abc"})");
  auto n = notification_object("sync.full", json::object{});
  CHECK(json::dump(n) == R"({"jsonrpc":"2.0","method":"sync.full","params":{}})");
  auto ok = response_object(json::value(3), json::object{{"ok", true}});
  CHECK(json::dump(ok) == R"({"jsonrpc":"2.0","id":3,"result":{"ok":true}})");
  auto err = error_object(json::value(3), rpc_error::method_not_found("nope"));
  CHECK(json::dump(err) == R"({"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found: nope"}})");
}
