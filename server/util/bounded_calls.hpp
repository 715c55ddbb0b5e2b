// Calls that may never return, made with a deadline.  A read on a slow or hung filesystem
// (NFS, a fuse mount) can block for minutes, and no flag makes read(2) give up; so each call
// runs on a thread of its own and the caller waits at most its deadline.  A call that misses
// it is an errc::timeout value, and its thread is left to finish (its value then dropped).
// A key whose call is still stuck is not called a second time: a later call with that key
// waits for the same one, so a hung folder holds one thread however often it is asked for,
// and with `max_stuck` keys stuck at once a call for another key is errc::busy at once
// rather than one more thread.  The threads hold the shared state, not the object: it may
// be destroyed while one still hangs.  Thread-safe; the caller blocks, so it is never
// called on the io thread of a server that serves (net::blocking_pool owns the server's).
#pragma once

#include <any>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "util/result.hpp"

namespace opentabs {

class bounded_calls {
 public:
  explicit bounded_calls(std::size_t max_stuck) : max_stuck_(max_stuck) {}

  // fn() on a thread of its own, within `deadline`.  Errors: errc::timeout when fn did not
  // return in time (or the earlier stuck call of `key` did not), errc::busy when `max_stuck`
  // other keys are stuck, errc::io when no thread could be started.
  template <class T>
  result<T> call(const std::string& key, std::function<T()> fn, std::chrono::milliseconds deadline);

  // Keys whose call missed its deadline and has not returned yet.
  std::size_t stuck() const;
  std::size_t max_stuck() const noexcept { return max_stuck_; }

 private:
  using outcome = std::shared_future<std::any>;
  struct one_call;
  struct stuck_call {
    outcome value;
    const one_call* call;  // which call holds the key (two may have raced to start)
  };
  struct shared {
    std::mutex mu;
    std::map<std::string, stuck_call> stuck;
  };
  // Whichever of the call's thread and its waiter comes second sees `settled` set: the
  // thread then takes the key out of `stuck`, the waiter takes the value.
  struct one_call {
    std::promise<std::any> done;
    std::atomic<bool> settled{false};
  };

  // The earlier stuck call of `key`, or busy, or nothing (a new call may start).
  result<std::optional<outcome>> admit(const std::string& key) const;
  // Starts fn's thread; false when none could be started.
  bool start(const std::string& key, std::shared_ptr<one_call> c, std::function<std::any()> fn) const;
  // After the deadline passed: the key is stuck unless the thread settled meanwhile (true).
  bool mark_stuck(const std::string& key, const std::shared_ptr<one_call>& c, const outcome& o) const;
  static error missed(std::chrono::milliseconds deadline);

  std::shared_ptr<shared> s_ = std::make_shared<shared>();
  std::size_t max_stuck_;
};

template <class T>
result<T> bounded_calls::call(const std::string& key, std::function<T()> fn, std::chrono::milliseconds deadline) {
  auto admitted = admit(key);
  if (!admitted) return admitted.err();
  if (auto& earlier = *admitted) {
    if (earlier->wait_for(deadline) != std::future_status::ready) return missed(deadline);
    return std::any_cast<T>(earlier->get());
  }
  auto c = std::make_shared<one_call>();
  outcome o = c->done.get_future().share();
  if (!start(key, c, [fn = std::move(fn)]() -> std::any { return fn(); }))
    return make_error(errc::io, "could not start a thread for " + key);
  if (o.wait_for(deadline) == std::future_status::ready || mark_stuck(key, c, o)) return std::any_cast<T>(o.get());
  return missed(deadline);
}

}  // namespace opentabs
