#include "net/watchdog.hpp"

#include <algorithm>

namespace opentabs::net {

void watchdog::set(time_point& slot, time_point t) {
  bool earlier = t < std::min(read_deadline_, write_deadline_);
  slot = t;
  // Only an earlier deadline needs to wake the sleeping watch; a later one is noticed when
  // the watch wakes at the old time and finds nothing expired.
  if (earlier) timer_.cancel();
}

awaitable<void> watchdog::watch(std::function<bool()> on_expired) {
  while (!stopped_) {
    auto next = std::min(read_deadline_, write_deadline_);
    if (next != never && steady_clock::now() >= next) {
      if (on_expired()) continue;
      expired_ = true;
      co_return;
    }
    timer_.expires_at(next);
    auto [ec] = co_await timer_.async_wait(as_value);
    (void)ec;  // our own cancel() is the normal wake-up: loop and re-check...
    // ...but a cancellation from outside (the connection finished) ends the watch.
    auto cs = co_await asio::this_coro::cancellation_state;
    if (cs.cancelled() != asio::cancellation_type::none) co_return;
  }
}

void watchdog::stop() {
  stopped_ = true;
  timer_.cancel();
}

}  // namespace opentabs::net
