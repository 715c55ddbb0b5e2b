// Waiters are the timers parked on the event (see event.hpp); notify_all() cancels them and
// a waiter tells a notify from its deadline by the operation_aborted it completes with.
#include "net/event.hpp"

#include <algorithm>

namespace opentabs::net {

awaitable<void> event::wait() { co_await wait_until(steady_clock::time_point::max()); }

awaitable<bool> event::wait_until(steady_clock::time_point deadline) {
  asio::steady_timer timer(ex_, deadline);
  waiters_.push_back(&timer);
  struct unregister {
    std::vector<asio::steady_timer*>& waiters;
    asio::steady_timer* timer;
    ~unregister() { std::erase(waiters, timer); }
  } guard{waiters_, &timer};
  auto [ec] = co_await timer.async_wait(as_value);
  co_return ec == asio::error::operation_aborted;
}

void event::notify_all() {
  // The woken waiters unregister themselves later, when they resume.
  for (auto* timer : waiters_) timer->cancel();
}

}  // namespace opentabs::net
