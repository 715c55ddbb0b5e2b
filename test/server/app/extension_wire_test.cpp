// Expected failures as extension-channel errors: the JSON-RPC code from the category and
// the hints the side panel acts on.
#include <doctest/doctest.h>

#include "app/extension_hub.hpp"
#include "app/extension_wire.hpp"

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
  CHECK(json::dump(extension_error_json(make_error("npm:E404", "not in the registry"))) ==
        R"({"code":-32603,"message":"not in the registry","data":{"npmErrorCode":"E404"}})");
  CHECK(json::dump(extension_error_json(make_error("npm:", "no code"))) == R"({"code":-32603,"message":"no code"})");
}

TEST_CASE("the hub registers ping and tool.progress in the channel's one method table") {
  asio::io_context io;
  extension_hub hub(io.get_executor(), dispatch_timing{});
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
