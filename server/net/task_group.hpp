// The owner of coroutines that run in the background: every co_spawn of the server goes
// through a task_group, so no work is fire-and-forget.  The owner closes the group (no new
// tasks; the stop actions running tasks registered are run) and awaits the end of what runs
// with a deadline; shutdown does both.  A task is ended the way the rest of the server ends
// things — by closing or cancelling what it waits on (a socket, a timer, a child process) —
// never through an Asio cancellation slot: under Asio 1.22 those completed into recycled
// memory (UBSan reported an invalid vptr in cancellation_slot::clear under many idle
// sockets).  A task that throws is logged under
// the name it was spawned with and counts as ended.  One io_context thread; nothing here
// is thread-safe.
#pragma once

#include <cstddef>
#include <exception>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "net/asio.hpp"

namespace opentabs::net {

// What a coroutine threw, as one line of text ("unknown exception" for a non-standard one).
std::string failure_text(const std::exception_ptr& e);

// The one completion handler for a co_spawn outside a group (the process's top coroutine):
// logs an error "<what> failed: <exception>" when the coroutine threw.
std::function<void(std::exception_ptr)> log_failure(std::string what);

class task_group {
  struct state;

 public:
  explicit task_group(asio::any_io_executor ex);
  task_group(const task_group&) = delete;
  task_group& operator=(const task_group&) = delete;

  // Starts `task`; `what` names it in the log line if it throws.  A closed group does not
  // start it and returns false.
  bool spawn(awaitable<void> task, std::string what);

  // No new tasks from now on (shutdown), and every registered stop action runs once.
  void close();

  // Keeps a stop action registered for as long as it lives (a task holds one while it waits
  // on something close() should end early).  Move-only.
  class stop_registration {
   public:
    stop_registration() = default;
    stop_registration(stop_registration&& o) noexcept;
    stop_registration& operator=(stop_registration&& o) noexcept;
    ~stop_registration();

   private:
    friend class task_group;
    void reset();
    std::weak_ptr<state> group_;
    std::uint64_t id_ = 0;
  };
  // Registers `stop` to run when the group closes; on a closed group it runs at once.
  [[nodiscard]] stop_registration on_close(std::function<void()> stop);

  // Resumes when every task has ended or at `deadline`, whichever is first; true when all
  // ended.
  awaitable<bool> wait(steady_clock::time_point deadline);

  std::size_t size() const;
  bool closed() const;
  const asio::any_io_executor& executor() const;

 private:
  // Shared with the completion handlers of the tasks, which may outlive the group when the
  // io_context is torn down with tasks still suspended.
  std::shared_ptr<state> s_;
};

}  // namespace opentabs::net
