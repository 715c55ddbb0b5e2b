#include "app/rate_limiter.hpp"

namespace opentabs::app {

void rate_limiter::evict(clock::time_point now) {
  while (!events_.empty() && now - events_.front() >= window_) events_.pop_front();
}

bool rate_limiter::try_acquire(clock::time_point now) {
  evict(now);
  if (events_.size() >= max_) return false;
  events_.push_back(now);
  return true;
}

std::size_t rate_limiter::in_window(clock::time_point now) {
  evict(now);
  return events_.size();
}

}  // namespace opentabs::app
