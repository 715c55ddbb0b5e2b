// How many MCP clients are using an endpoint now, for /health and `opentabs status`.
// Sessions that idle toward their 30-minute expiry are not clients in use, and a
// 2026-07-28 client has no session at all, so both are counted here: sessions busy or
// heard from within the activity window (a minute by default), plus stateless clients (by clientInfo name)
// heard from within it.  Sans-I/O with an injectable clock; lives on the io thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace opentabs::mcp {

struct client_counts {
  std::size_t active_sessions = 0;     // busy, or a request within the window
  std::size_t idle_sessions = 0;       // kept until idle expiry, nothing within the window
  std::size_t stateless_clients = 0;   // 2026-07-28 clients (distinct names) within the window

  std::size_t active() const { return active_sessions + stateless_clients; }
  client_counts& operator+=(const client_counts& o);
};

// The 2026-07-28 clients heard from lately, by the name in their clientInfo ("" for
// none).  Two instances of one client count once: the request carries nothing else that
// tells them apart.  Bounded: beyond `capacity` names the least recent is forgotten.
class recent_clients {
 public:
  using clock_fn = std::function<std::chrono::steady_clock::time_point()>;
  explicit recent_clients(std::size_t capacity = 64, clock_fn now = std::chrono::steady_clock::now);

  void heard_from(std::string_view client_name);
  std::size_t count_within(std::chrono::milliseconds window) const;

 private:
  struct entry {
    std::string name;
    std::chrono::steady_clock::time_point last;
  };
  std::size_t capacity_;
  clock_fn now_;
  std::vector<entry> entries_;
};

}  // namespace opentabs::mcp
