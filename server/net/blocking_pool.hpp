// The server's one place for work that blocks: the extension copy, plugin discovery, the
// WebMCP schema compiles.  The io thread hands such work over with `co_await pool.run(fn)`
// and is resumed on the io executor with fn's value (or exception) once a worker has run
// it; the io thread itself never waits for a thread.  Work that may never end — a read of
// a plugin folder on a hung mount — goes through bounded(), where a call has a deadline
// and at most a fixed number of calls may be stuck (util/bounded_calls.hpp); discovery, on
// a worker, loads each plugin that way, so a hung folder holds one thread of its own and
// never a worker.  Built once by the server and passed by reference to what needs it.
#pragma once

#include <cstddef>
#include <exception>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include "net/asio.hpp"
#include "net/event.hpp"
#include "util/bounded_calls.hpp"

namespace opentabs::net {

class blocking_pool {
 public:
  // `threads` workers for run(); at most `max_stuck` bounded calls stuck at once.
  blocking_pool(asio::any_io_executor io, std::size_t threads, std::size_t max_stuck);
  // Waits for the run() work under way (each ends by itself; queued work not started is
  // dropped); never for a stuck bounded call.  Destroyed before the io_context.
  ~blocking_pool();
  blocking_pool(const blocking_pool&) = delete;
  blocking_pool& operator=(const blocking_pool&) = delete;

  // fn() on a worker; resumes the caller on the io executor with its value.  What fn
  // throws is rethrown here.
  template <class F>
  awaitable<std::invoke_result_t<F&>> run(F fn);

  bounded_calls& bounded() noexcept { return bounded_; }

 private:
  // Filled on the io thread by the handler the worker posts there.
  template <class T>
  struct handover {
    explicit handover(const asio::any_io_executor& io) : arrived(io) {}
    std::optional<std::conditional_t<std::is_void_v<T>, bool, T>> value;
    std::exception_ptr failure;
    bool done = false;
    event arrived;
  };

  asio::any_io_executor io_;
  asio::thread_pool workers_;
  bounded_calls bounded_;
};

template <class F>
awaitable<std::invoke_result_t<F&>> blocking_pool::run(F fn) {
  using T = std::invoke_result_t<F&>;
  auto h = std::make_shared<handover<T>>(io_);
  asio::post(workers_, [h, io = io_, fn = std::move(fn)]() mutable {
    std::optional<std::conditional_t<std::is_void_v<T>, bool, T>> value;
    std::exception_ptr failure;
    try {
      if constexpr (std::is_void_v<T>) {
        fn();
        value.emplace(true);
      } else {
        value.emplace(fn());
      }
    } catch (...) {
      failure = std::current_exception();
    }
    asio::post(io, [h, value = std::move(value), failure]() mutable {
      h->value = std::move(value);
      h->failure = failure;
      h->done = true;
      h->arrived.notify_all();
    });
  });
  while (!h->done) co_await h->arrived.wait();
  if (h->failure) std::rethrow_exception(h->failure);
  if constexpr (!std::is_void_v<T>) co_return std::move(*h->value);
}

}  // namespace opentabs::net
