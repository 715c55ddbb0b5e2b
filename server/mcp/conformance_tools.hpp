// Test mode only (`opentabs start --conformance-mode`): a tool_service decorator that adds
// the fixture tools the official MCP conformance suite calls (test_simple_text,
// test_tool_with_progress, ...; exact shapes in spec/mcp.md §4.4) in front of the real
// pipeline.  Every other name goes to the inner service unchanged.  The fixtures' log
// messages are published as plugin logs of the pseudo-plugin "conformance", which the MCP
// endpoint routes onto the calling request's SSE stream.  The input-required fixtures
// (2026-07-28 multi round-trip requests) ask through InputRequiredResult with a sealed
// requestState, like the permission prompt of the real pipeline.  The tasks-extension
// fixtures (greet, slow_compute, failing_job, ...) take long enough to become tasks and ask
// their questions through call_options::elicit, which a task turns into inputRequests.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <vector>

#include "mcp/request_state.hpp"

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
  tools::call_traits traits_of(std::string_view tool) const override;

  // The fixtures alone, in list order.
  static const std::vector<tools::listed_tool>& fixtures();

 private:
  asio::awaitable<bool> pause(const tools::call_options& options);
  // The answer of an input-required fixture; nullopt: `name` is not one.
  // Puts an elicitation/create to a 2025-11-25 session's client on the call's stream and
  // waits for its result; nullopt: it could not be sent, the client answered with an
  // error, or the call was cancelled.
  asio::awaitable<std::optional<json::value>> ask_client(const tools::call_options& options, json::object params);
  // Several questions at once through `channel` (options.elicit or options.sample); the
  // answers in order (nullopt entries: not answered).
  using client_channel = std::function<bool(json::object, tools::call_options::answer_fn)>;
  asio::awaitable<std::vector<std::optional<json::value>>> ask_clients(const tools::call_options& options, std::vector<json::object> questions,
                                                                       const client_channel& channel);
  // Waits `d`; false when the call was cancelled meanwhile.
  asio::awaitable<bool> sleep(const tools::call_options& options, std::chrono::milliseconds d);
  // The answer of a tasks-extension fixture (slow_compute, failing_job, ...); nullopt:
  // `name` is not one.
  asio::awaitable<std::optional<tools::call_result>> task_fixture(const std::string& name, const json::object& arguments,
                                                                  const tools::call_options& options);
  std::optional<tools::call_result> input_fixture(const std::string& name, const json::object& arguments,
                                                  const tools::call_options& options);

  asio::any_io_executor ex_;
  tools::tool_service& inner_;
  tools::server_events& events_;
  request_state_seal seal_;
};

}  // namespace opentabs::mcp
