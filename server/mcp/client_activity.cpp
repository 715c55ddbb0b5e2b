// Counting MCP clients in use: see client_activity.hpp.
#include "mcp/client_activity.hpp"

#include <algorithm>

namespace opentabs::mcp {

client_counts& client_counts::operator+=(const client_counts& o) {
  active_sessions += o.active_sessions;
  idle_sessions += o.idle_sessions;
  stateless_clients += o.stateless_clients;
  return *this;
}

recent_clients::recent_clients(std::size_t capacity, clock_fn now) : capacity_(std::max<std::size_t>(capacity, 1)), now_(std::move(now)) {}

void recent_clients::heard_from(std::string_view client_name) {
  auto now = now_();
  auto it = std::find_if(entries_.begin(), entries_.end(), [&](const entry& e) { return e.name == client_name; });
  if (it != entries_.end()) {
    it->last = now;
    return;
  }
  if (entries_.size() >= capacity_) {
    auto oldest = std::min_element(entries_.begin(), entries_.end(), [](const entry& a, const entry& b) { return a.last < b.last; });
    entries_.erase(oldest);
  }
  entries_.push_back(entry{std::string(client_name), now});
}

std::size_t recent_clients::count_within(std::chrono::milliseconds window) const {
  auto now = now_();
  return static_cast<std::size_t>(std::count_if(entries_.begin(), entries_.end(), [&](const entry& e) { return now - e.last <= window; }));
}

}  // namespace opentabs::mcp
