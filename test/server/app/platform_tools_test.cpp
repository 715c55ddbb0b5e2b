// The two platform tools' schemas: clients list the lean one, calls are still validated with
// the strict one (empty strings and unknown arguments refused).
#include "app/platform_tools.hpp"

#include <doctest/doctest.h>

#include <string>

#include "schema/lazy_validator.hpp"
#include "schema/validator.hpp"

using namespace opentabs;

namespace {

const tools::tool_def& platform_tool(std::string_view name) {
  static const auto defs = app::platform_tool_defs();
  const tools::tool_def* found = nullptr;
  for (const auto& t : defs)
    if (t.name == name) found = &t;
  REQUIRE_MESSAGE(found != nullptr, "no platform tool " << name);
  return *found;
}

bool accepts(std::string_view tool, std::string_view arguments) {
  const auto& t = platform_tool(tool);
  REQUIRE(t.validator != nullptr);
  REQUIRE(t.validator->get().ok());
  return t.validator->get().value()->validate(json::parse_object(arguments).value(), tool).ok();
}

}  // namespace

TEST_CASE("the listed platform schemas name types, required and enums, without the validator's bounds") {
  for (const char* name : {"plugin_inspect", "plugin_mark_reviewed"}) {
    INFO(name);
    const auto& t = platform_tool(name);
    CHECK(*json::get_string(t.input_schema, "type") == "object");
    REQUIRE(json::get_array(t.input_schema, "required") != nullptr);
    CHECK(!json::get_array(t.input_schema, "required")->empty());
    const std::string listed = json::dump(t.input_schema);
    CHECK(listed.find("minLength") == std::string::npos);
    CHECK(listed.find("additionalProperties") == std::string::npos);
    CHECK(t.description.size() >= 10);
  }
  CHECK(json::dump(platform_tool("plugin_mark_reviewed").input_schema).find(R"("enum":["ask","auto"])") != std::string::npos);
}

TEST_CASE("platform tool calls are validated strictly") {
  CHECK(accepts("plugin_inspect", R"({"plugin":"slack"})"));
  CHECK(!accepts("plugin_inspect", R"({"plugin":""})"));
  CHECK(!accepts("plugin_inspect", R"({"plugin":"slack","extra":1})"));
  CHECK(!accepts("plugin_inspect", R"({})"));
  const auto good = R"({"plugin":"slack","version":"1.0.0","reviewToken":"t","permission":"ask"})";
  CHECK(accepts("plugin_mark_reviewed", good));
  CHECK(!accepts("plugin_mark_reviewed", R"({"plugin":"slack","version":"","reviewToken":"t","permission":"ask"})"));
  CHECK(!accepts("plugin_mark_reviewed", R"({"plugin":"slack","version":"1.0.0","reviewToken":"","permission":"ask"})"));
  CHECK(!accepts("plugin_mark_reviewed", R"({"plugin":"slack","version":"1.0.0","reviewToken":"t","permission":"off"})"));
  CHECK(!accepts("plugin_mark_reviewed", R"({"plugin":"slack","version":"1.0.0","reviewToken":"t","permission":"ask","x":true})"));
}
