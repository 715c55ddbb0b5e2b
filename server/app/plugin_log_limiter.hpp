// How much of each plugin's logging reaches server.log.  A page can send plugin.log as fast
// as the socket allows, far more than a log file should take; the MCP clients and the side panel still get
// every entry, but the file gets at most `max_lines` lines and `max_bytes` bytes per plugin
// per window.  The rest is counted, and once the window is over one summary line says how
// much was left out.  Time is passed in so tests need no sleeping.  Pure.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace opentabs::app {

class plugin_log_limiter {
 public:
  using clock = std::chrono::steady_clock;

  struct limits {
    std::size_t max_lines = 200;
    std::size_t max_bytes = 256 * 1024;
    clock::duration window = std::chrono::seconds(1);
  };

  struct suppressed {
    std::string plugin;
    std::size_t lines = 0;
    std::size_t bytes = 0;
  };

  plugin_log_limiter() = default;
  explicit plugin_log_limiter(limits l) : limits_(l) {}

  // Whether a line of `bytes` from `plugin` may be written now; counts it when not.
  bool admit(const std::string& plugin, std::size_t bytes, clock::time_point now);

  // The counts of windows that have ended with suppressed lines (each reported once).
  std::vector<suppressed> take_summaries(clock::time_point now);

  // When the earliest window holding suppressed lines ends (for a timer), if any.
  std::optional<clock::time_point> next_summary_due() const;

  // "N log lines (B bytes) left out of server.log: over L lines or K KiB per second".
  std::string summary_text(const suppressed& s) const;

  const limits& config() const { return limits_; }

 private:
  struct window_state {
    clock::time_point start;
    std::size_t lines = 0;
    std::size_t bytes = 0;
    std::size_t dropped_lines = 0;
    std::size_t dropped_bytes = 0;
  };
  limits limits_;
  std::map<std::string, window_state> windows_;
};

}  // namespace opentabs::app
