// Routing of gateway tools/calls (see gateway_routing.hpp).
#include "mcp/gateway_routing.hpp"

#include <optional>

namespace opentabs::mcp {
namespace {

gateway_route answer(tools::call_result r) {
  gateway_route route;
  route.what = gateway_route::kind::answer;
  route.answer = std::move(r);
  return route;
}

}  // namespace

gateway_route route_gateway_call(tool_catalog& catalog, const std::string& tool, json::object arguments) {
  if (tool == gateway::list_tools_tool) {
    auto filter = gateway::parse_list_arguments(arguments);
    if (!filter) return answer(tools::call_result::text(filter.err().message, true, errc::tool_failed));
    auto listing = catalog.gateway_listing(*filter ? std::optional<std::string_view>(**filter) : std::nullopt);
    if (!listing) {
      std::string names;
      for (const auto& n : catalog.plugin_names()) names += (names.empty() ? "" : ", ") + n;
      return answer(tools::call_result::text("Plugin \"" + **filter + "\" not found. Available plugins: " + names, true,
                                             errc::not_found));
    }
    return answer(tools::call_result::text(std::move(*listing)));
  }
  if (tool != gateway::call_tool) {
    gateway_route route;
    route.what = gateway_route::kind::error;
    route.error = jsonrpc::rpc_error::invalid_params_text("Unknown gateway tool: " + tool.substr(0, 200) + " (this endpoint offers " +
                                                          std::string(gateway::list_tools_tool) + " and " +
                                                          std::string(gateway::call_tool) + ")");
    return route;
  }
  auto target = gateway::parse_call_arguments(arguments);
  if (!target) return answer(tools::call_result::text(target.err().message, true, errc::tool_failed));
  gateway_route route;
  route.what = gateway_route::kind::forward;
  route.target = std::move(*target);
  return route;
}

}  // namespace opentabs::mcp
