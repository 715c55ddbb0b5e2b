// Expected failures as extension-channel errors: the JSON-RPC code from the category and
// the hints the side panel acts on.
#include <doctest/doctest.h>

#include "app/extension_hub.hpp"
#include "app/extension_wire.hpp"
#include "app/npm_commands.hpp"
#include "jsonrpc/jsonrpc.hpp"
#include "fake_extension.hpp"

#include <optional>
#include <string>
#include <vector>

using namespace opentabs;
using namespace opentabs::app;

TEST_CASE("categories become extension-channel error objects") {
  CHECK(json::dump(extension_error_json(make_error(errc::invalid_params, "Missing params: plugin"))) ==
        R"({"code":-32602,"message":"Missing params: plugin"})");
  CHECK(json::dump(extension_error_json(make_error(errc::internal, "Could not save config.json: disk full"))) ==
        R"({"code":-32603,"message":"Could not save config.json: disk full"})");
  CHECK(json::dump(extension_error_json(make_error(errc::unsupported, "cannot update itself"))) ==
        R"({"code":-32603,"message":"cannot update itself"})");
  CHECK(json::dump(extension_error_reply(make_error(errc::method_not_found, "Method not found: x"))) ==
        R"({"error":{"code":-32601,"message":"Method not found: x"}})");
}

TEST_CASE("busy carries retryAfterMs; npm failures carry npm's code") {
  CHECK(json::dump(extension_error_json(make_error(errc::busy, "Another plugin operation is in progress"))) ==
        R"({"code":-32603,"message":"Another plugin operation is in progress","data":{"retryAfterMs":2000}})");
  // npm's own code travels in the error's npm_code (npm_commands' failure_error).
  const npm::failure not_found{"E404", "404 Not Found", npm::failure_kind::package_not_found};
  CHECK(json::dump(extension_error_json(npm::failure_error(not_found, "not in the registry"))) ==
        R"({"code":-32603,"message":"not in the registry","data":{"npmErrorCode":"E404"}})");
  const npm::failure unreachable{"ECONNREFUSED", "connect ECONNREFUSED", npm::failure_kind::unreachable};
  CHECK(json::dump(extension_error_json(npm::failure_error(unreachable, "registry down"))) ==
        R"({"code":-32603,"message":"registry down","data":{"npmErrorCode":"ECONNREFUSED"}})");
  const npm::failure silent{"", "npm exited with code 1", npm::failure_kind::other};
  CHECK(json::dump(extension_error_json(npm::failure_error(silent, "no code"))) == R"({"code":-32603,"message":"no code"})");
}

TEST_CASE("the hub registers ping and tool.progress in the channel's one method table") {
  asio::io_context io;
  opentabs::app::testing::connection_log connections;
  extension_hub hub(io.get_executor(), dispatch_timing{}, connections);
  CHECK(hub.methods().names() == std::vector<std::string>{"ping", "tool.progress"});
  // Owners add theirs to the same table; a second owner of a name is refused.
  hub.methods().add("plugin.search", {[](ext_connection&, const json::object&, const json::value*) {
                                        return extension_hub::inbound_outcome{};
                                      },
                                      jsonrpc::params_kind::object, jsonrpc::call_kind::request});
  CHECK(hub.methods().find("plugin.search", true));
  CHECK_FALSE(hub.methods().find("plugin.search", false));
  CHECK_FALSE(hub.methods().find("plugin.noSuchOperation"));
  CHECK_THROWS_AS(hub.methods().add("ping", {}), std::logic_error);
}

TEST_CASE("request_frame is a JSON-RPC request whose params repeat its id as the dispatch id") {
  for (std::string id : {std::string("5f0c6a2e-8d4b-4c7a-9b1e-2f3a4b5c6d7e"), std::string("we\"ird\\id\n")}) {
    for (const char* text : {"{}", R"({"a":1})", R"({"input":{"x":[1,{"y":"\u00e9\n"}]},"__opentabs_dispatchId":"theirs"})"}) {
      auto params = json::parse_object(text);
      REQUIRE(params.ok());
      auto frame = json::parse_object(request_frame("tool.dispatch", id, *params));
      REQUIRE(frame.ok());
      auto env = jsonrpc::classify_peer(*frame);
      CHECK(env.kind == jsonrpc::envelope_kind::request);
      CHECK(env.method == "tool.dispatch");
      CHECK(frame->at("id") == json::str(id));
      json::object want = *params;
      want[std::string(kDispatchIdKey)] = json::str(id);
      CHECK(frame->at("params") == want);
    }
  }
}

TEST_CASE("tool_dispatch_params names the plugin, the tool, the input and the tab when there is one") {
  auto input = json::parse_object(R"({"query":"h\u00e9llo","nested":{"a":[true,null,1.5e300]}})");
  REQUIRE(input.ok());
  auto with_tab = tool_dispatch_params("my\"plugin", "send", *input, 42);
  CHECK(with_tab == json::object{{"plugin", "my\"plugin"}, {"tool", "send"}, {"input", *input}, {"tabId", 42}});
  auto without = tool_dispatch_params("p", "t", json::object(), std::nullopt);
  CHECK(json::dump(without) == R"({"plugin":"p","tool":"t","input":{}})");
}
