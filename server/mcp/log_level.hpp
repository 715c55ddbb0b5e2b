// MCP logging, sans-I/O: the eight syslog levels, a session's minimum-level filter
// (logging/setLevel) and the notifications/message a plugin log entry becomes.
#pragma once

#include <optional>
#include <string_view>

#include "json/json.hpp"
#include "tools/events.hpp"

namespace opentabs::mcp {

enum class log_level { debug, info, notice, warning, error, critical, alert, emergency };

std::optional<log_level> parse_log_level(std::string_view s);
std::string_view to_string(log_level l);
// "debug|info|notice|..." for error messages.
std::string_view log_levels_text();

// A session's filter.  Until the client sets a level every message passes (what the
// official SDK does); afterwards only messages at or above it.
class log_filter {
 public:
  void set(log_level min) { min_ = min; }
  bool passes(log_level l) const { return !min_ || l >= *min_; }
  std::optional<log_level> level() const { return min_; }

 private:
  std::optional<log_level> min_;
};

// Plugin levels are debug|info|warning|error; anything else is treated as info.
log_level plugin_log_level(std::string_view plugin_level);

// params of notifications/message for a plugin log entry:
// {level, logger: "plugin:<name>", data: "<message>[ <json(data)>]"}.
json::object plugin_log_params(const tools::plugin_log_entry& entry);

}  // namespace opentabs::mcp
