// Test mode only (`opentabs start --conformance-mode`): a tool_service decorator that adds
// the fixture tools the official MCP conformance suite calls (test_simple_text,
// test_tool_with_progress, ...; exact shapes in spec/mcp.md §4.4) in front of the real
// pipeline.  Every other name goes to the inner service unchanged.  The fixtures' log
// messages are published as plugin logs of the pseudo-plugin "conformance", which the MCP
// endpoint routes onto the calling request's SSE stream.
#pragma once

#include <vector>

#include "net/asio.hpp"
#include "tools/events.hpp"
#include "tools/tool_service.hpp"

namespace opentabs::mcp {

class conformance_tools final : public tools::tool_service {
 public:
  // The plugin name the fixtures are listed under.
  static constexpr std::string_view plugin_name = "conformance";

  conformance_tools(asio::any_io_executor ex, tools::tool_service& inner, tools::server_events& events);

  std::vector<tools::listed_tool> list_tools() const override;
  asio::awaitable<tools::call_result> call_tool(std::string name, json::object arguments, tools::call_options options) override;

  // The fixtures alone, in list order.
  static const std::vector<tools::listed_tool>& fixtures();

 private:
  asio::awaitable<bool> pause(const tools::call_options& options);

  asio::any_io_executor ex_;
  tools::tool_service& inner_;
  tools::server_events& events_;
};

}  // namespace opentabs::mcp
