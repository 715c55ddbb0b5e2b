// JSON-RPC classification and serialisation: every malformed shape gets the right code
// and, where it could be read, the request id.
#include <doctest/doctest.h>

#include "mcp/jsonrpc.hpp"

using namespace opentabs;
using namespace opentabs::mcp;

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

  auto p = classify(j(R"({"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"t"}})"));
  REQUIRE(p);
  CHECK(*json::get_string(p.msg->params, "name") == "t");
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
