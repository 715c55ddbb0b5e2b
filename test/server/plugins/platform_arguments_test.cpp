// Tests for the injected tabId/instance arguments and their removal before validation.
#include "plugins/platform_arguments.hpp"

#include <doctest/doctest.h>

#include "schema/validator.hpp"

using namespace opentabs;
using namespace opentabs::plugins;

namespace {
json::object obj(std::string_view t) { return *json::parse_object(t); }
}  // namespace

TEST_CASE("tabId is always injected; instance only with two or more instances") {
  auto input = obj(R"({"type":"object","properties":{"q":{"type":"string"}},"required":["q"],"additionalProperties":false})");
  auto one = inject_platform_arguments(input, obj(R"({"main":"*://a.example.com/*"})"));
  auto& tab = one.at("properties").at("tabId").get_object();
  CHECK(tab.at("type") == "integer");
  CHECK(tab.at("minimum") == 1);
  CHECK(tab.at("description").is_string());
  CHECK_FALSE(one.at("properties").get_object().contains("instance"));
  CHECK(json::dump(one.at("required")) == R"(["q"])");

  auto two = inject_platform_arguments(input, obj(R"({"alpha":"*://a/*","beta":"*://b/*"})"), "Tracker");
  auto& inst = two.at("properties").at("instance").get_object();
  CHECK(json::dump(inst.at("enum")) == R"(["alpha","beta"])");
  CHECK(inst.at("type") == "string");
  CHECK(json::dump(two.at("required")) == R"(["q","instance"])");
  CHECK(json::dump(input.at("required")) == R"(["q"])");  // the original is untouched

  auto bare = inject_platform_arguments(obj("{}"), obj(R"({"a":"x","b":"y"})"));
  CHECK(bare.at("type") == "object");
  CHECK(json::dump(bare.at("required")) == R"(["instance"])");
}

TEST_CASE("stripping keeps only usable values and always removes both keys") {
  auto args = obj(R"({"q":"x","tabId":42,"instance":"beta"})");
  auto p = strip_platform_arguments(args);
  CHECK(p.tab_id == std::optional<std::int64_t>(42));
  CHECK(p.instance == std::optional<std::string>("beta"));
  CHECK(json::dump(args) == R"({"q":"x"})");
  for (auto bad : {R"({"tabId":0})", R"({"tabId":-3})", R"({"tabId":"7"})", R"({"tabId":1.5})", R"({"tabId":null})"}) {
    CAPTURE(bad);
    auto a = obj(bad);
    CHECK_FALSE(strip_platform_arguments(a).tab_id.has_value());
    CHECK(a.empty());
  }
  auto d = obj(R"({"tabId":7.0,"instance":""})");
  auto pd = strip_platform_arguments(d);
  CHECK(pd.tab_id == std::optional<std::int64_t>(7));
  CHECK_FALSE(pd.instance.has_value());
}

TEST_CASE("an additionalProperties:false schema accepts the call once platform arguments are stripped") {
  auto input = obj(R"({"type":"object","properties":{"q":{"type":"string"}},"additionalProperties":false})");
  auto v = schema::validator::compile(input);
  REQUIRE(v.ok());
  auto args = obj(R"({"q":"x","tabId":3})");
  CHECK_FALSE((*v)->validate(args, "p_t").ok());
  strip_platform_arguments(args);
  CHECK((*v)->validate(args, "p_t").ok());
  // And the injected schema itself is valid JSON Schema the validator compiles.
  CHECK(schema::validator::compile(inject_platform_arguments(input, obj(R"({"a":"x","b":"y"})"))).ok());
}
