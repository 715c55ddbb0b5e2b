#include "net/child_task.hpp"

#include "net/task_group.hpp"
#include "util/log.hpp"

namespace opentabs::net {

child_task::child_task(asio::any_io_executor ex, std::string what)
    : ex_(ex), what_(std::move(what)), finished_signal_(ex, steady_clock::time_point::max()) {}

void child_task::start(awaitable<void> op) {
  started_ = true;
  asio::co_spawn(ex_, std::move(op), [this](std::exception_ptr e) {
    if (e) log::error(what_ + " ended by an unexpected error: " + failure_text(e));
    finished_ = true;
    finished_signal_.cancel();
  });
}

awaitable<void> child_task::join() {
  // Single-threaded: the completion above cannot run between this test and the wait.
  while (started_ && !finished_) co_await finished_signal_.async_wait(as_value);
}

}  // namespace opentabs::net
