#include "app/invocation_notice.hpp"

#include "app/extension_hub.hpp"
#include "json/json.hpp"
#include "util/clock.hpp"

namespace opentabs::app {
namespace {

// {"jsonrpc":"2.0","method":<method>,"params":{"plugin":<plugin>,"tool":<tool>,<rest>}}
std::string invocation_json(std::string_view method, std::string_view plugin, std::string_view tool, std::string_view rest) {
  std::string out;
  out.reserve(96 + plugin.size() + tool.size() + rest.size());
  out += R"({"jsonrpc":"2.0","method":")";
  out += method;
  out += R"(","params":{"plugin":)";
  out += json::quote(plugin);
  out += R"(,"tool":)";
  out += json::quote(tool);
  out += ',';
  out += rest;
  out += "}}";
  return out;
}

}  // namespace

std::string invocation_start_json(std::string_view plugin, std::string_view tool, std::int64_t ts_ms) {
  return invocation_json("tool.invocationStart", plugin, tool, R"("ts":)" + std::to_string(ts_ms));
}

std::string invocation_end_json(std::string_view plugin, std::string_view tool, std::int64_t duration_ms, bool success) {
  return invocation_json("tool.invocationEnd", plugin, tool,
                         R"("durationMs":)" + std::to_string(duration_ms) + R"(,"success":)" + (success ? "true" : "false"));
}

invocation_notice::invocation_notice(extension_hub& hub, std::string_view plugin, std::string_view tool)
    : hub_(hub), plugin_(plugin), tool_(tool), started_ms_(now_epoch_ms()) {
  hub_.broadcast_text(invocation_start_json(plugin_, tool_, started_ms_));
}

void invocation_notice::finish(bool success) {
  if (finished_) return;
  finished_ = true;
  hub_.broadcast_text(invocation_end_json(plugin_, tool_, now_epoch_ms() - started_ms_, success));
}

}  // namespace opentabs::app
