// Deadlines for one connection without a timer per operation: the reader and the writer
// each move their own deadline forward; one watchdog coroutine sleeps until the earliest
// and closes the socket when one has passed.  An idle side parks its deadline at
// time_point::max().  Asio 1.22 has no cancel_after, and this costs one timer per
// connection instead of one per read.
#pragma once

#include <chrono>
#include <functional>

#include "net/asio.hpp"

namespace opentabs::net {

class watchdog {
 public:
  using time_point = steady_clock::time_point;
  static constexpr time_point never = time_point::max();

  explicit watchdog(asio::any_io_executor ex) : timer_(ex) {}

  void read_by(time_point t) { set(read_deadline_, t); }
  void write_by(time_point t) { set(write_deadline_, t); }
  void read_within(steady_clock::duration d) { read_by(steady_clock::now() + d); }
  void write_within(steady_clock::duration d) { write_by(steady_clock::now() + d); }
  void no_read_deadline() { read_deadline_ = never; }
  void no_write_deadline() { write_deadline_ = never; }

  // Runs until stop() or until a deadline passes.  Then `on_expired` is called: it either
  // moves a deadline forward and returns true (keep watching; e.g. a WebSocket ping was
  // sent and a pong is now due) or closes the socket and returns false (the watch ends).
  awaitable<void> watch(std::function<bool()> on_expired);
  void stop();
  bool expired() const { return expired_; }

 private:
  void set(time_point& slot, time_point t);

  asio::steady_timer timer_;
  time_point read_deadline_ = never;
  time_point write_deadline_ = never;
  bool stopped_ = false;
  bool expired_ = false;
};

}  // namespace opentabs::net
