#include "app/invocation_notice.hpp"

#include "app/extension_hub.hpp"
#include "json/json.hpp"
#include "util/clock.hpp"

namespace opentabs::app {
namespace {

// {"jsonrpc":"2.0","method":<method>,"params":{"plugin":<plugin>,"tool":<tool>, — the
// caller appends the rest of params and "}}".
std::string invocation_head(std::string_view method, std::string_view plugin, std::string_view tool) {
  std::string out;
  out.reserve(112 + plugin.size() + tool.size());
  out += R"({"jsonrpc":"2.0","method":")";
  out += method;
  out += R"(","params":{"plugin":)";
  json::append_quoted(out, plugin);
  out += R"(,"tool":)";
  json::append_quoted(out, tool);
  out += ',';
  return out;
}

}  // namespace

std::string invocation_start_json(std::string_view plugin, std::string_view tool, std::int64_t ts_ms) {
  auto out = invocation_head("tool.invocationStart", plugin, tool);
  out += R"("ts":)";
  out += std::to_string(ts_ms);
  out += "}}";
  return out;
}

std::string invocation_end_json(std::string_view plugin, std::string_view tool, std::int64_t duration_ms, bool success) {
  auto out = invocation_head("tool.invocationEnd", plugin, tool);
  out += R"("durationMs":)";
  out += std::to_string(duration_ms);
  out += success ? R"(,"success":true}})" : R"(,"success":false}})";
  return out;
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
