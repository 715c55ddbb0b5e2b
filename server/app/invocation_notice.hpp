// The side panel's activity feed: tool.invocationStart when a tool call starts, and
// tool.invocationEnd (duration, success) when it finishes, sent to every extension
// connection (spec §3.5).  Both are written as JSON text straight away: they go out twice
// per call to every connection, and their shape is fixed.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace opentabs::app {

class extension_hub;

// The two messages, for a plugin and a tool name as the extension knows them.
std::string invocation_start_json(std::string_view plugin, std::string_view tool, std::int64_t ts_ms);
std::string invocation_end_json(std::string_view plugin, std::string_view tool, std::int64_t duration_ms, bool success);

// Sends the start now and the end when finish() is called (once).  The names are viewed,
// not copied: they must outlive the notice (the tool definition a call holds does).
class invocation_notice {
 public:
  invocation_notice(extension_hub& hub, std::string_view plugin, std::string_view tool);
  void finish(bool success);

 private:
  extension_hub& hub_;
  std::string_view plugin_, tool_;
  std::int64_t started_ms_;
  bool finished_ = false;
};

}  // namespace opentabs::app
