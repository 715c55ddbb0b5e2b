#include "mcp/log_level.hpp"

#include <array>

namespace opentabs::mcp {
namespace {
constexpr std::array<std::string_view, 8> kNames{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"};
}

std::optional<log_level> parse_log_level(std::string_view s) {
  for (std::size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == s) return static_cast<log_level>(i);
  return std::nullopt;
}

std::string_view to_string(log_level l) { return kNames[static_cast<std::size_t>(l)]; }

std::string_view log_levels_text() { return "debug, info, notice, warning, error, critical, alert, emergency"; }

log_level plugin_log_level(std::string_view plugin_level) {
  auto l = parse_log_level(plugin_level);
  return l ? *l : log_level::info;
}

json::object plugin_log_params(const tools::plugin_log_entry& entry) {
  std::string data = entry.message;
  if (!entry.data.is_null()) {
    data += ' ';
    data += json::dump(entry.data);
  }
  return json::object{{"level", json::str(to_string(plugin_log_level(entry.level)))},
                      {"logger", json::str("plugin:" + entry.plugin)},
                      {"data", json::str(data)}};
}

}  // namespace opentabs::mcp
