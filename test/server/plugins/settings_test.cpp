// Tests for configSchema parsing, settings validation and resolution (§4.5).
#include "plugins/settings.hpp"

#include <doctest/doctest.h>

using namespace opentabs;
using namespace opentabs::plugins;

namespace {
json::object obj(std::string_view t) { return *json::parse_object(t); }

std::vector<config_field> tracker_fields() {
  auto f = parse_config_schema(obj(R"({
    "instanceUrl":{"type":"url","label":"Tracker URL","required":true},
    "defaultPriority":{"type":"select","label":"P","options":["low","medium","high"]},
    "teamName":{"type":"string","label":"Team"},
    "maxResults":{"type":"number","label":"N"},
    "includeClosed":{"type":"boolean","label":"C"}})"));
  REQUIRE(f.ok());
  return *f;
}
}  // namespace

TEST_CASE("configSchema parsing") {
  auto f = tracker_fields();
  REQUIRE(f.size() == 5);
  CHECK(f[0].required);
  CHECK(f[1].options.size() == 3);
  CHECK(parse_config_schema(obj(R"({"a":{"type":"color","label":"x"}})")).err().message ==
        "configSchema.a: type \"color\" is not one of url, string, number, boolean, select");
  CHECK(parse_config_schema(obj(R"({"a":{"type":"select","label":"x","options":[]}})")).err().message ==
        "configSchema.a: a select needs a non-empty \"options\" array");
  CHECK(parse_config_schema(obj(R"({"a":{"type":"string"}})")).err().message == "configSchema.a: needs a string \"label\"");
  CHECK(parse_config_schema(obj(R"({"a":3})")).err().is(errc::invalid_params));
}

TEST_CASE("resolution: url instances become patterns, homepage and instanceMap") {
  auto f = tracker_fields();
  auto user = obj(R"({"instanceUrl":{"alpha":"http://localhost:9516/app","beta":"https://tracker.example.com","bad":"ftp://x"},
    "defaultPriority":"high","teamName":"core","maxResults":"ten","includeClosed":true,"unknown":1})");
  auto r = resolve_settings(f, {"https://static.example.com/*"}, "", &user);
  CHECK(r.url_patterns == std::vector<std::string>{"https://static.example.com/*", "*://localhost:9516/*", "*://tracker.example.com/*"});
  CHECK(r.homepage == "http://localhost:9516/app");
  CHECK(json::dump(r.instance_map) == R"({"alpha":"*://localhost:9516/*","beta":"*://tracker.example.com/*"})");
  CHECK(json::dump(r.values) ==
        R"({"instanceUrl":{"alpha":"http://localhost:9516/app","beta":"https://tracker.example.com"},"defaultPriority":"high","teamName":"core","includeClosed":true})");
  CHECK(r.warnings.size() == 2);  // the ftp instance and the non-number
  for (auto& w : r.warnings) CHECK(w.find("ftp://x") == std::string::npos);  // values never logged

  auto none = resolve_settings(f, {}, "https://home.example.com", nullptr);
  CHECK(none.url_patterns.empty());
  CHECK(none.homepage == "https://home.example.com");
  CHECK(none.instance_map.empty());
  auto bad_select = obj(R"({"defaultPriority":"urgent"})");
  CHECK_FALSE(resolve_settings(f, {}, "", &bad_select).values.contains("defaultPriority"));
}

TEST_CASE("validating settings before they are stored") {
  auto f = tracker_fields();
  auto good = validate_settings(f, obj(R"({"instanceUrl":{"a":"http://localhost:1"},"defaultPriority":"low","teamName":null})"));
  REQUIRE(good.ok());
  CHECK(json::dump(*good) == R"({"instanceUrl":{"a":"http://localhost:1"},"defaultPriority":"low","teamName":null})");
  auto single = validate_settings(f, obj(R"({"instanceUrl":"https://t.example.com"})"));
  REQUIRE(single.ok());
  CHECK(json::dump(*single) == R"({"instanceUrl":{"default":"https://t.example.com"}})");

  auto msg = [&](std::string_view s) {
    auto r = validate_settings(f, obj(s));
    REQUIRE_FALSE(r.ok());
    CHECK(r.err().is(errc::invalid_params));
    return r.err().message;
  };
  CHECK(msg(R"({"instanceUrl":{}})") == "Settings validation failed: instanceUrl: must name at least one instance");
  CHECK(msg(R"J({"instanceUrl":{"a":"javascript:alert(1)"}})J") == "Settings validation failed: instanceUrl: instance \"a\" must be an http or https URL");
  CHECK(msg(R"({"instanceUrl":5})") == "Settings validation failed: instanceUrl: must be an object mapping instance names to URLs");
  CHECK(msg(R"({"defaultPriority":"urgent"})") == "Settings validation failed: defaultPriority: must be one of: low, medium, high");
  CHECK(msg(R"({"maxResults":"5"})") == "Settings validation failed: maxResults: must be a finite number");
  CHECK(msg(R"({"includeClosed":"yes"})") == "Settings validation failed: includeClosed: must be a boolean");
  CHECK(msg(R"({"teamName":7})") == "Settings validation failed: teamName: must be a string");
  CHECK(msg(R"({"colour":"red"})").rfind("Settings validation failed: colour: unknown setting (known: instanceUrl, ", 0) == 0);
}

TEST_CASE("needsSetup") {
  auto f = tracker_fields();
  CHECK(needs_setup(f, nullptr));
  auto empty_map = obj(R"({"instanceUrl":{}})");
  CHECK(needs_setup(f, &empty_map));
  auto set = obj(R"({"instanceUrl":{"a":"http://localhost:1"}})");
  CHECK_FALSE(needs_setup(f, &set));
  CHECK_FALSE(needs_setup({}, nullptr));
}
