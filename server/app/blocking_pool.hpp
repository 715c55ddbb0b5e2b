// The app's threads for work that blocks on the disk, so the io thread never does: the
// extension copy at start, plugin discovery of a reload.  A job is awaited from a coroutine
// (run) — the coroutine resumes on its own executor with the job's value or exception — or,
// where a caller must block until a job has ended, handed over as a future (submit).
//
// Every job is bounded: a read that may hang (a plugin folder on a dead network mount) runs
// in plugins/bounded_load's own detached thread, never on the pool, so a stuck read cannot
// hold up the jobs queued behind it.  The pool is destroyed (its jobs finished) before the
// io_context that the awaiting coroutines resume on.
#pragma once

#include <cstddef>
#include <future>
#include <memory>
#include <optional>
#include <type_traits>

#include "net/asio.hpp"

namespace opentabs::app {

class blocking_pool {
 public:
  explicit blocking_pool(std::size_t threads) : pool_(threads) {}
  ~blocking_pool() { pool_.join(); }  // queued jobs still run: their callers wait for them
  blocking_pool(const blocking_pool&) = delete;
  blocking_pool& operator=(const blocking_pool&) = delete;

  // Runs `job` on a pool thread; the awaiting coroutine gets its value (or exception).
  template <class F>
  net::awaitable<std::invoke_result_t<F&>> run(F job);

  // Queues `job`; the future is ready when it has ended.
  template <class F>
  std::shared_future<std::invoke_result_t<F&>> submit(F job);

 private:
  asio::thread_pool pool_;
};

template <class F>
net::awaitable<std::invoke_result_t<F&>> blocking_pool::run(F job) {
  using R = std::invoke_result_t<F&>;
  // The job writes into this frame, which stays suspended (and alive) until it has ended.
  if constexpr (std::is_void_v<R>) {
    co_await asio::co_spawn(pool_, [&job]() -> net::awaitable<void> {
      job();
      co_return;
    }, net::use_awaitable);
  } else {
    std::optional<R> out;
    co_await asio::co_spawn(pool_, [&job, &out]() -> net::awaitable<void> {
      out.emplace(job());
      co_return;
    }, net::use_awaitable);
    co_return std::move(*out);
  }
}

template <class F>
std::shared_future<std::invoke_result_t<F&>> blocking_pool::submit(F job) {
  auto task = std::make_shared<std::packaged_task<std::invoke_result_t<F&>()>>(std::move(job));
  auto done = task->get_future().share();
  asio::post(pool_, [task] { (*task)(); });
  return done;
}

}  // namespace opentabs::app
