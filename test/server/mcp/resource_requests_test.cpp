// MCP resources on the wire: the per-client subscription bound, params.uri, the two
// revisions' resource-not-found errors, the caching hints of 2026-07-28 results, and the
// conformance fixtures in front of a service.
#include <doctest/doctest.h>

#include "mcp/conformance_resources.hpp"
#include "mcp/modern_request.hpp"
#include "mcp/request_methods.hpp"
#include "mcp/resource_requests.hpp"

#include <asio/co_spawn.hpp>
#include <asio/io_context.hpp>

using namespace opentabs;
using namespace opentabs::mcp;

namespace {

// Two resources; reading "x://fails" fails as the tool's own failure, "x://empty" answers
// no contents, "x://a" one text.
class two_resources : public tools::resource_service {
 public:
  asio::awaitable<std::vector<tools::listed_resource>> list_resources(tools::call_options options) override {
    last_client = options.client;
    co_return std::vector<tools::listed_resource>{{"x://a", "a", "A", "first", "text/plain"}, {"x://b", "b", "", "", ""}};
  }
  std::vector<tools::listed_template> list_templates() const override { return {{"x://t/{id}", "t", "", "by id", "text/plain"}}; }
  asio::awaitable<result<json::array>> read_resource(std::string uri, tools::call_options) override {
    if (uri == "x://fails") co_return make_error(errc::tool_failed, "Tab closed");
    if (uri == "x://empty") co_return json::array{};
    if (uri == "x://a") co_return json::array{json::object{{"uri", "x://a"}, {"mimeType", "text/plain"}, {"text", "hello"}}};
    co_return make_error(errc::not_found, "");
  }
  bool can_subscribe(std::string_view uri) const override { return uri == "x://a"; }
  std::string last_client;
};

template <class T>
T run(asio::awaitable<T> a) {
  asio::io_context io;
  std::optional<T> out;
  asio::co_spawn(io, std::move(a), [&out](std::exception_ptr e, T v) {
    if (e) std::rethrow_exception(e);
    out = std::move(v);
  });
  io.run();
  REQUIRE(out.has_value());
  return std::move(*out);
}

json::object parse_object(const std::string& text) {
  auto v = json::parse(text);
  REQUIRE(v);
  return v->get_object();
}

struct request {
  json::value body;
  jsonrpc::message msg;
  request(std::string_view method, json::object params) : body(json::object{{"jsonrpc", "2.0"}, {"id", 7}, {"method", json::str(method)}, {"params", std::move(params)}}) {
    auto c = jsonrpc::classify(body);
    REQUIRE(c);
    msg = *c.msg;
  }
};

std::string answer(tools::resource_service* service, std::string_view method, json::object params, bool modern) {
  request r(method, std::move(params));
  return run(answer_resource_request(service, r.msg, tools::call_options{}, modern));
}

}  // namespace

TEST_CASE("a client's subscriptions are bounded; a duplicate is one; unsubscribing frees a place") {
  resource_subscriptions subs;
  for (std::size_t i = 0; i < resource_subscriptions::max_per_client; ++i) CHECK(subs.add("x://" + std::to_string(i)));
  CHECK(subs.add("x://0"));  // already held: no new place taken
  auto over = subs.add("x://one-too-many");
  REQUIRE_FALSE(over);
  CHECK(over.err().kind == errc::too_large);
  CHECK(over.err().message.find("limit is 64") != std::string::npos);
  CHECK(subs.remove("x://3"));
  CHECK_FALSE(subs.remove("x://3"));
  CHECK(subs.add("x://one-too-many"));
  CHECK(subs.has("x://one-too-many"));
  CHECK(subs.size() == resource_subscriptions::max_per_client);
}

TEST_CASE("params.uri: required, a non-empty string, bounded") {
  CHECK(parse_resource_uri(json::object{}).error.message.find("params.uri") != std::string::npos);
  CHECK_FALSE(parse_resource_uri(json::object{{"uri", ""}}));
  CHECK_FALSE(parse_resource_uri(json::object{{"uri", 5}}));
  CHECK_FALSE(parse_resource_uri(json::object{{"uri", json::str(std::string(max_resource_uri_bytes + 1, 'a'))}}));
  auto ok = parse_resource_uri(json::object{{"uri", "x://a"}});
  REQUIRE(ok);
  CHECK(*ok.value == "x://a");
}

TEST_CASE("resource not found: -32002 in 2025-11-25, -32602 from 2026-07-28 on, data.uri either way") {
  two_resources service;
  for (bool modern : {false, true}) {
    auto o = parse_object(answer(&service, "resources/read", json::object{{"uri", "x://nope"}}, modern));
    CHECK(o.at("error").at("code").as_int64() == (modern ? -32602 : -32002));
    CHECK(o.at("error").at("message").as_string() == "Resource not found");
    CHECK(o.at("error").at("data").at("uri").as_string() == "x://nope");
    // No contents is never answered as an empty array (SEP-2164).
    auto empty = parse_object(answer(&service, "resources/read", json::object{{"uri", "x://empty"}}, modern));
    CHECK(empty.at("error").at("code").as_int64() == (modern ? -32602 : -32002));
    // Without a service every read is not found.
    CHECK(parse_object(answer(nullptr, "resources/read", json::object{{"uri", "x://a"}}, modern)).contains("error"));
  }
  // A failed read is the read's own failure, not "not found".
  auto failed = parse_object(answer(&service, "resources/read", json::object{{"uri", "x://fails"}}, false));
  CHECK(failed.at("error").at("code").as_int64() == -32603);
  CHECK(failed.at("error").at("message").as_string() == "Tab closed");
  CHECK(failed.at("error").at("data").at("uri").as_string() == "x://fails");
}

TEST_CASE("listings and reads: the 2025 shapes, and 2026-07-28 results led by resultType and caching hints") {
  two_resources service;
  auto list = parse_object(answer(&service, "resources/list", json::object{}, false));
  auto resources = list.at("result").at("resources").as_array();
  REQUIRE(resources.size() == 2);
  CHECK(resources[0].at("title").as_string() == "A");
  CHECK(resources[0].at("mimeType").as_string() == "text/plain");
  CHECK_FALSE(resources[1].as_object().contains("description"));
  CHECK_FALSE(list.at("result").as_object().contains("ttlMs"));

  auto modern = answer(&service, "resources/list", json::object{}, true);
  CHECK(modern.find(R"("result":{"resultType":"complete","ttlMs":5000,"cacheScope":"private","resources":[)") != std::string::npos);
  auto templates = answer(&service, "resources/templates/list", json::object{}, true);
  CHECK(templates.find(R"("resultType":"complete","ttlMs":3600000,"cacheScope":"public","resourceTemplates":[{"uriTemplate":"x://t/{id}")") !=
        std::string::npos);
  auto read = parse_object(answer(&service, "resources/read", json::object{{"uri", "x://a"}}, true));
  CHECK(read.at("result").at("ttlMs").as_int64() == 0);
  CHECK(read.at("result").at("contents").at(0).at("text").as_string() == "hello");
  auto bad = parse_object(answer(&service, "resources/read", json::object{}, true));
  CHECK(bad.at("error").at("code").as_int64() == -32602);
}

TEST_CASE("subscribe and unsubscribe in a session: unknown URIs refused, the bound said in the error") {
  two_resources service;
  resource_subscriptions subs;
  auto subscribe = [&](std::string uri, std::string_view method = "resources/subscribe") {
    request r(method, json::object{{"uri", json::str(uri)}});
    return parse_object(answer_subscription_request(&service, r.msg, subs));
  };
  CHECK(subscribe("x://a").at("result").as_object().empty());
  CHECK(subs.has("x://a"));
  auto unknown = subscribe("x://nope");
  CHECK(unknown.at("error").at("code").as_int64() == -32002);
  CHECK(unknown.at("error").at("data").at("uri").as_string() == "x://nope");
  CHECK(subscribe("x://a", "resources/unsubscribe").at("result").as_object().empty());
  CHECK_FALSE(subs.has("x://a"));
  // Full: the next one is refused with the limit in data.
  for (std::size_t i = 0; i < resource_subscriptions::max_per_client; ++i) CHECK(subs.add("y://" + std::to_string(i)));
  auto full = subscribe("x://a");
  CHECK(full.at("error").at("code").as_int64() == -32602);
  CHECK(full.at("error").at("data").at("limit").as_int64() == 64);
}

TEST_CASE("which methods each revision answers here; a session's table gains the resources rows") {
  CHECK(is_resource_method("resources/read", true));
  CHECK(is_resource_method("resources/subscribe", false));
  CHECK_FALSE(is_resource_method("resources/subscribe", true));  // subscriptions/listen instead
  CHECK_FALSE(is_resource_method("tools/list", false));
  request_methods table;
  add_resource_methods(table, nullptr);
  CHECK(table.names() == std::vector<std::string>{"resources/list", "resources/read", "resources/subscribe", "resources/templates/list",
                                                  "resources/unsubscribe"});
}

TEST_CASE("conformance fixtures in front of the server's resources") {
  two_resources inner;
  conformance_resources deco(inner);
  auto list = parse_object(answer(&deco, "resources/list", json::object{}, false)).at("result").at("resources").as_array();
  REQUIRE(list.size() == conformance_resources::fixtures().size() + 2);
  CHECK(list[0].at("uri").as_string() == "test://static-text");
  CHECK(list.back().at("uri").as_string() == "x://b");
  auto text = parse_object(answer(&deco, "resources/read", json::object{{"uri", "test://static-text"}}, false));
  CHECK(text.at("result").at("contents").at(0).at("text").as_string() == "This is the content of the static text resource.");
  auto blob = parse_object(answer(&deco, "resources/read", json::object{{"uri", "test://static-binary"}}, false));
  CHECK(blob.at("result").at("contents").at(0).at("mimeType").as_string() == "image/png");
  CHECK(blob.at("result").at("contents").at(0).as_object().contains("blob"));
  auto templated = parse_object(answer(&deco, "resources/read", json::object{{"uri", "test://template/123/data"}}, false));
  CHECK(templated.at("result").at("contents").at(0).at("text").as_string() == R"({"id":"123","templateTest":true,"data":"Data for ID: 123"})");
  CHECK(parse_object(answer(&deco, "resources/read", json::object{{"uri", "test://template/1/2/data"}}, false)).contains("error"));
  CHECK(parse_object(answer(&deco, "resources/read", json::object{{"uri", "x://a"}}, false)).contains("result"));
  CHECK(deco.can_subscribe("test://watched-resource"));
  CHECK(deco.can_subscribe("x://a"));
  CHECK_FALSE(deco.can_subscribe("x://b"));
  auto templates = parse_object(answer(&deco, "resources/templates/list", json::object{}, false));
  CHECK(templates.at("result").at("resourceTemplates").at(0).at("uriTemplate").as_string() == "test://template/{id}/data");
  CHECK(templates.at("result").at("resourceTemplates").as_array().size() == 2);
}

TEST_CASE("subscriptions/listen takes resourcesListChanged and a bounded resourceSubscriptions, and acknowledges them") {
  auto p = parse_listen(*json::parse_object(
      R"({"notifications":{"resourcesListChanged":true,"resourceSubscriptions":["opentabs://tabs/3","opentabs://tabs/3","opentabs://health"]}})"));
  REQUIRE(p);
  CHECK(p.value->resources_list_changed);
  CHECK_FALSE(p.value->tools_list_changed);
  CHECK(p.value->resource_subscriptions == std::vector<std::string>{"opentabs://health", "opentabs://tabs/3"});
  CHECK(listen_acknowledgement(json::value(7), *p.value) ==
        R"({"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{"resourcesListChanged":true,)"
        R"("resourceSubscriptions":["opentabs://health","opentabs://tabs/3"]},"_meta":{"io.modelcontextprotocol/subscriptionId":7}}})");
  CHECK_FALSE(parse_listen(*json::parse_object(R"({"notifications":{"resourcesListChanged":1}})")));
  CHECK_FALSE(parse_listen(*json::parse_object(R"({"notifications":{"resourceSubscriptions":"opentabs://health"}})")));
  CHECK_FALSE(parse_listen(*json::parse_object(R"({"notifications":{"resourceSubscriptions":[""]}})")));
  json::array many;
  for (std::size_t i = 0; i <= resource_subscriptions::max_per_client; ++i) many.push_back(json::str("x://" + std::to_string(i)));
  auto too_many = parse_listen(json::object{{"notifications", json::object{{"resourceSubscriptions", many}}}});
  REQUIRE_FALSE(too_many);
  CHECK(too_many.error.message.find("at most 64") != std::string::npos);
}
