// Tests for make_plugin(): tool_defs for the registry, settings applied, needsSetup.
#include "plugins/plugin.hpp"

#include <doctest/doctest.h>

#include "plugins/platform_arguments.hpp"
#include "schema/lazy_validator.hpp"
#include "schema/validator.hpp"
#include "temp_tree.hpp"

using namespace opentabs;
using namespace opentabs::plugins;
using opentabs::testing::temp_tree;

TEST_CASE("fixture-notes becomes registry tool definitions") {
  auto loaded = load_plugin(temp_tree::fixture("notes"), "local");
  REQUIRE(loaded.ok());
  std::size_t n = loaded->tools.size();
  auto p = make_plugin(std::move(*loaded), nullptr);
  CHECK(p.name() == "fixture-notes");
  REQUIRE(p.tools.size() == n);
  auto* echo = p.find_tool("echo");
  REQUIRE(echo != nullptr);
  CHECK(echo->name == "fixture-notes_echo");
  CHECK(echo->plugin == "fixture-notes");
  CHECK(echo->base_name == "echo");
  CHECK(echo->kind == tools::tool_kind::plugin);
  CHECK_FALSE(echo->description.empty());
  CHECK_FALSE(echo->icon.empty());
  CHECK(echo->validator != nullptr);
  CHECK(echo->input_schema.at("properties").get_object().contains("tabId"));
  CHECK_FALSE(echo->input_schema.at("properties").get_object().contains("instance"));
  CHECK_FALSE(p.needs_setup);
  CHECK(p.find_tool("nope") == nullptr);

  // The full tool-call path: strip platform arguments, then validate.
  auto args = *json::parse_object(R"({"message":"hi","tabId":12})");
  auto platform = strip_platform_arguments(args);
  CHECK(platform.tab_id == std::optional<std::int64_t>(12));
  CHECK(echo->validator->get().value()->validate(args, echo->name).ok());
  auto bad = *json::parse_object(R"({"message":5})");
  auto r = echo->validator->get().value()->validate(bad, echo->name);
  REQUIRE_FALSE(r.ok());
  CHECK(r.err().message == "Invalid arguments for tool \"fixture-notes_echo\":\n  - /message: must be string");
}

TEST_CASE("fixture-tracker with two instances requires `instance`; unconfigured it needs setup") {
  auto loaded = load_plugin(temp_tree::fixture("tracker"), "local");
  REQUIRE(loaded.ok());
  auto unconfigured = make_plugin(*loaded, nullptr);
  CHECK(unconfigured.needs_setup);
  CHECK(unconfigured.settings.url_patterns.empty());

  auto user = *json::parse_object(
      R"({"instanceUrl":{"alpha":"http://localhost:9516","beta":"http://127.0.0.1:9517"},"defaultPriority":"high"})");
  auto p = make_plugin(std::move(*loaded), &user);
  CHECK_FALSE(p.needs_setup);
  CHECK(p.settings.url_patterns == std::vector<std::string>{"*://localhost:9516/*", "*://127.0.0.1:9517/*"});
  CHECK(p.settings.homepage == "http://localhost:9516");
  for (auto& t : p.tools) {
    CAPTURE(t.name);
    auto& props = t.input_schema.at("properties").get_object();
    CHECK(props.contains("tabId"));
    CHECK(json::dump(props.at("instance").at("enum")) == R"(["alpha","beta"])");
    bool required = false;
    for (auto& x : t.input_schema.at("required").get_array()) required = required || x == "instance";
    CHECK(required);
    CHECK(t.name.rfind("fixture-tracker_", 0) == 0);
  }
}
