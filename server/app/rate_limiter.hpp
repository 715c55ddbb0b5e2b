// Sliding-window rate limits per endpoint, shared by all callers (spec §6.5): at most N
// events in any window of W.  Time is passed in so tests need no sleeping.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>

namespace opentabs::app {

class rate_limiter {
 public:
  using clock = std::chrono::steady_clock;

  rate_limiter(std::size_t max_events, std::chrono::milliseconds window) : max_(max_events), window_(window) {}

  // Records an event at `now` if allowed; false when the limit is reached.
  bool try_acquire(clock::time_point now);
  // Events currently counted in the window.
  std::size_t in_window(clock::time_point now);

 private:
  void evict(clock::time_point now);
  std::size_t max_;
  std::chrono::milliseconds window_;
  std::deque<clock::time_point> events_;
};

}  // namespace opentabs::app
