// The arguments the platform adds to every plugin tool (spec §4.5, §3.7 step 2): an optional
// `tabId` to target a tab, and — when a plugin has two or more configured instances — a
// required `instance`.  They are injected into the schema MCP clients see and stripped
// from the arguments before validation, so they never reach the plugin.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "json/json.hpp"

namespace opentabs::plugins {

// The MCP-visible input schema: `input_schema` plus properties.tabId
// {type:integer, minimum:1, description}, and with ≥2 instances properties.instance
// {type:string, enum:[names], description} appended to `required`.
json::object inject_platform_arguments(const json::object& input_schema, const json::object& instance_map,
                                       std::string_view plugin_display_name = {});

struct platform_arguments {
  std::optional<std::int64_t> tab_id;   // only a positive integer is kept
  std::optional<std::string> instance;  // only a non-empty string is kept
};

// Removes `tabId` and `instance` from `args` (whatever their values) and returns the usable ones.
platform_arguments strip_platform_arguments(json::object& args);

}  // namespace opentabs::plugins
