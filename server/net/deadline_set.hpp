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
//
// The timer (and so the clock) is a template parameter: the server uses `deadline_set`, on
// asio::steady_timer; tests use a timer on a clock they move by hand, so they never wait on
// real time.  The definitions live in deadline_set.ipp; deadline_set.cpp instantiates the
// steady one.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "net/asio.hpp"

namespace opentabs::net {

template <class Timer>
class basic_deadline_set {
  struct state;

 public:
  using clock_type = typename Timer::clock_type;
  using time_point = typename Timer::time_point;
  static constexpr time_point never = time_point::max();

  enum class when_empty { cancel_timer, keep_timer };
  explicit basic_deadline_set(asio::any_io_executor ex, when_empty idle = when_empty::cancel_timer);
  ~basic_deadline_set();  // entries still registered stay valid; their deadlines no longer fire
  basic_deadline_set(const basic_deadline_set&) = delete;
  basic_deadline_set& operator=(const basic_deadline_set&) = delete;

  // One holder's deadline; registered for its lifetime.
  class entry {
   public:
    // `on_expired` runs from the timer's handler, at most once per set deadline, and must not
    // destroy entries (cancelling a socket, which completes its wait later, is the use).
    entry(basic_deadline_set& set, std::function<void()> on_expired);
    ~entry();
    entry(const entry&) = delete;
    entry& operator=(const entry&) = delete;

    void expire_at(time_point t);
    void clear();  // no deadline (the wait it guarded is over)
    // The last set deadline passed before clear() (on_expired ran).
    bool expired() const { return expired_; }
    time_point deadline() const { return deadline_; }

   private:
    friend class basic_deadline_set;
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

using deadline_set = basic_deadline_set<asio::steady_timer>;
extern template class basic_deadline_set<asio::steady_timer>;

}  // namespace opentabs::net
