#include "app/plugin_log_limiter.hpp"

namespace opentabs::app {

bool plugin_log_limiter::admit(const std::string& plugin, std::size_t bytes, clock::time_point now) {
  auto [it, fresh] = windows_.try_emplace(plugin);
  auto& w = it->second;
  // A new window starts only once the previous one's summary was taken, so no count is lost.
  if (fresh || (now - w.start >= limits_.window && w.dropped_lines == 0)) {
    w = window_state{};
    w.start = now;
  }
  if (w.dropped_lines == 0 && w.lines < limits_.max_lines && w.bytes + bytes <= limits_.max_bytes) {
    ++w.lines;
    w.bytes += bytes;
    return true;
  }
  ++w.dropped_lines;
  w.dropped_bytes += bytes;
  return false;
}

std::vector<plugin_log_limiter::suppressed> plugin_log_limiter::take_summaries(clock::time_point now) {
  std::vector<suppressed> out;
  for (auto it = windows_.begin(); it != windows_.end();) {
    auto& w = it->second;
    if (now - w.start < limits_.window) {
      ++it;
      continue;
    }
    if (w.dropped_lines > 0) out.push_back({it->first, w.dropped_lines, w.dropped_bytes});
    it = windows_.erase(it);  // an ended window holds nothing else worth keeping
  }
  return out;
}

std::optional<plugin_log_limiter::clock::time_point> plugin_log_limiter::next_summary_due() const {
  std::optional<clock::time_point> due;
  for (const auto& [plugin, w] : windows_)
    if (w.dropped_lines > 0 && (!due || w.start + limits_.window < *due)) due = w.start + limits_.window;
  return due;
}

std::string plugin_log_limiter::summary_text(const suppressed& s) const {
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(limits_.window).count();
  std::string per = ms == 1000 ? "per second" : "per " + std::to_string(ms) + " ms";
  return std::to_string(s.lines) + " log line(s) (" + std::to_string(s.bytes) +
         " bytes) left out of server.log: over " + std::to_string(limits_.max_lines) + " lines or " +
         std::to_string(limits_.max_bytes / 1024) + " KiB " + per;
}

}  // namespace opentabs::app
