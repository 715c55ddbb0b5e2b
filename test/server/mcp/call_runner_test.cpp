// The one call runner without sockets, over the scripted tool_service of mcp_harness.hpp:
// a 2026-07-28 call's response, a session-less call refusing 2026-07-28 fields, the
// gateway answering its own meta-tool, opentabs_call reaching the plugin tool, and
// guarded() turning a throw into a JSON-RPC internal error.  The same paths over HTTP:
// endpoint_test.cpp and test/integration/mcp_*.test.mjs.
#include <doctest/doctest.h>

#include <stdexcept>

#include "json_text.hpp"
#include "mcp/call_runner.hpp"
#include "mcp_harness.hpp"

using namespace opentabs;
using namespace opentabs::mcp;
using namespace std::chrono_literals;

using opentabs::mcp::testing::object_of;

namespace {

struct call_rig {
  explicit call_rig(bool gateway) : runner(io.get_executor(), service, catalog, request_states, gateway, {50ms, 15s}) {}

  asio::io_context io;
  tools::server_events events;
  mcp_test::scripted_tools service{io.get_executor(), events};
  tool_catalog catalog{service};
  request_state_seal request_states;
  call_runner runner;

  // Runs one tools/call (JSON text) to its response, bounded.
  std::optional<std::string> call(std::string_view request, const client_context* modern) {
    auto value = json::parse(request);
    REQUIRE(value);
    auto c = jsonrpc::classify(*value);
    REQUIRE(c);
    const jsonrpc::message m = *c.msg;
    bool done = false;
    std::optional<std::string> response;
    asio::co_spawn(
        io,
        [&]() -> net::awaitable<void> {
          auto work = runner.call(nullptr, m, nullptr, modern);
          response = co_await std::move(work);
          done = true;
        },
        net::log_failure("test call"));
    for (int i = 0; i < 1000 && !done; ++i) io.run_one_for(10ms);
    REQUIRE(done);
    return response;
  }
};

}  // namespace

TEST_CASE("a 2026-07-28 call is answered with resultType complete and runs with origin mcp and the client's name") {
  call_rig rig(false);
  client_context client;
  client.protocol_version = "2026-07-28";
  client.client_name = "rig";
  auto response = rig.call(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"notes_echo","arguments":{"text":"hi"}}})", &client);
  REQUIRE(response);
  auto o = object_of(*response);
  const auto* result = json::get_object(o, "result");
  REQUIRE(result);
  CHECK(*json::get_string(*result, "resultType") == "complete");
  REQUIRE(rig.service.calls.size() == 1);
  CHECK(rig.service.calls[0].origin == "mcp");
}

TEST_CASE("a call outside 2026-07-28 refuses inputResponses before any tool runs") {
  call_rig rig(false);
  auto response = rig.call(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"notes_echo","arguments":{},"inputResponses":{}}})", nullptr);
  REQUIRE(response);
  auto o = object_of(*response);
  const auto* error = json::get_object(o, "error");
  REQUIRE(error);
  CHECK(json::get_int(*error, "code") == jsonrpc::rpc_code::invalid_params);
  CHECK(rig.service.calls.empty());
}

TEST_CASE("the gateway answers opentabs_list_tools itself and runs the plugin tool opentabs_call names") {
  call_rig rig(true);
  auto listed = rig.call(R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"opentabs_list_tools","arguments":{}}})", nullptr);
  REQUIRE(listed);
  CHECK(listed->find("notes_echo") != std::string::npos);
  CHECK(rig.service.calls.empty());
  auto called = rig.call(
      R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"opentabs_call","arguments":{"tool":"notes_echo","arguments":{"text":"via"}}}})",
      nullptr);
  REQUIRE(called);
  REQUIRE(rig.service.calls.size() == 1);
  CHECK(rig.service.calls[0].name == "notes_echo");
  CHECK(rig.service.calls[0].origin == "gateway");
}

TEST_CASE("guarded: a request that throws is answered with a JSON-RPC internal error") {
  call_rig rig(false);
  auto value = json::parse(R"({"jsonrpc":"2.0","id":5,"method":"tools/list"})");
  REQUIRE(value);
  auto c = jsonrpc::classify(*value);
  REQUIRE(c);
  const jsonrpc::message m = *c.msg;
  std::optional<std::string> response;
  asio::co_spawn(
      rig.io,
      [&]() -> net::awaitable<void> {
        auto work = rig.runner.guarded(m, []() -> net::awaitable<std::optional<std::string>> { throw std::runtime_error("boom"); });
        response = co_await std::move(work);
      },
      net::log_failure("test guarded"));
  rig.io.run_for(1s);
  REQUIRE(response);
  auto o = object_of(*response);
  const auto* error = json::get_object(o, "error");
  REQUIRE(error);
  CHECK(json::get_int(*error, "code") == jsonrpc::rpc_code::internal_error);
}
