// The two meta-tools of /mcp/gateway — opentabs_list_tools {plugin?} and opentabs_call
// {tool, arguments?} — their tools/list entry and their argument parsing.  Calls go
// through the same tool_service pipeline as /mcp (permission, validation, audit).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "json/json.hpp"
#include "util/result.hpp"

namespace opentabs::mcp::gateway {

inline constexpr std::string_view list_tools_tool = "opentabs_list_tools";
inline constexpr std::string_view call_tool = "opentabs_call";

// The serialised tools/list result with exactly the two meta-tools.
const std::string& tools_list_result();

// opentabs_list_tools arguments: the optional plugin filter.  Errors are the text of an
// isError result ("Invalid arguments for tool ...").
result<std::optional<std::string>> parse_list_arguments(const json::object& args);

struct call_target {
  std::string tool;
  json::object arguments;
};
result<call_target> parse_call_arguments(const json::object& args);

}  // namespace opentabs::mcp::gateway
