// Many deadlines on one timer, without racing each operation against a timer of its own.
// The HTTP client gives every exchange an entry: before a wait (connect, read, write) the
// exchange sets its deadline, after the wait it clears it, and if the deadline passes while
// it waits, the entry's callback runs (the exchange cancels its socket, so the wait ends).
//
// Why not `op || timer.async_wait()`: Asio's awaitable operators start a parallel group of
// two spawned coroutines per wait, and the timer is re-armed (a timerfd update) every time.
// Here a wait costs two stores: the timer is armed only when a deadline earlier than the
// armed one appears, a later one is found when the timer fires and re-arms for what is then
// earliest.  When the last entry goes, the timer is cancelled (a pending wait would keep
// io_context::run() from returning) unless the owner runs until io_context::stop() and asks
// to keep it: then a stream of short-lived entries (one per MCP call) arms it about once per
// deadline period instead of once per entry.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "net/asio.hpp"

namespace opentabs::net {

class deadline_set {
  struct state;

 public:
  using time_point = steady_clock::time_point;
  static constexpr time_point never = time_point::max();

  enum class when_empty { cancel_timer, keep_timer };
  explicit deadline_set(asio::any_io_executor ex, when_empty idle = when_empty::cancel_timer);
  ~deadline_set();  // entries still registered stay valid; their deadlines no longer fire
  deadline_set(const deadline_set&) = delete;
  deadline_set& operator=(const deadline_set&) = delete;

  // One holder's deadline; registered for its lifetime.
  class entry {
   public:
    // `on_expired` runs from the timer's handler, at most once per set deadline, and must not
    // destroy entries (cancelling a socket, which completes its wait later, is the use).
    entry(deadline_set& set, std::function<void()> on_expired);
    ~entry();
    entry(const entry&) = delete;
    entry& operator=(const entry&) = delete;

    void expire_at(time_point t);
    void clear();  // no deadline (the wait it guarded is over)
    // The last set deadline passed before clear() (on_expired ran).
    bool expired() const { return expired_; }
    time_point deadline() const { return deadline_; }

   private:
    friend class deadline_set;
    std::shared_ptr<state> state_;
    std::function<void()> on_expired_;
    time_point deadline_ = never;
    bool expired_ = false;
  };

  // The time the timer is armed for (never when idle); for tests.
  time_point armed() const;

 private:
  std::shared_ptr<state> state_;
};

}  // namespace opentabs::net
