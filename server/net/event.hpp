// The one way a coroutine waits until another part of the program tells it something
// changed: `co_await ev.wait()` resumes at the next notify_all().  Like a condition
// variable, a notify before the wait is not remembered, so a waiter loops on its own
// condition:  `while (!done) co_await done_changed.wait();`.  wait_until() also resumes at a
// deadline (a back-off sleep that a change cuts short), which replaces racing a timer
// against the event with `||`.
//
// Each wait parks a timer of its own at its deadline and notify_all() cancels every parked
// timer; nothing else wakes them.  One io_context thread; not thread-safe.  An event must
// outlive its waiters.
#pragma once

#include <vector>

#include "net/asio.hpp"

namespace opentabs::net {

class event {
 public:
  explicit event(asio::any_io_executor ex) : ex_(std::move(ex)) {}
  event(const event&) = delete;
  event& operator=(const event&) = delete;

  // Resumes at the next notify_all().
  awaitable<void> wait();
  // Resumes at the next notify_all() (true) or at `deadline` (false), whichever is first.
  awaitable<bool> wait_until(steady_clock::time_point deadline);
  // Wakes every coroutine waiting now.
  void notify_all();

  std::size_t waiting() const { return waiters_.size(); }

 private:
  asio::any_io_executor ex_;
  std::vector<asio::steady_timer*> waiters_;
};

}  // namespace opentabs::net
