// Batches of up to `width` tasks, each spawned into a task_group the caller then awaits.
#include "net/run_bounded.hpp"

#include <algorithm>
#include <string>

#include "net/task_group.hpp"

namespace opentabs::net {

awaitable<void> run_bounded(asio::any_io_executor ex, std::vector<task_fn> tasks, std::size_t width,
                            std::string_view what) {
  width = std::max<std::size_t>(1, width);
  for (std::size_t i = 0; i < tasks.size(); i += width) {
    task_group batch(ex);
    std::size_t end = std::min(tasks.size(), i + width);
    for (std::size_t k = i; k < end; ++k)
      batch.spawn([](task_fn task) -> awaitable<void> { co_await task(); }(std::move(tasks[k])), std::string(what));
    // Each task carries its own deadline (dispatch timeouts, npm timeouts): the batch ends
    // when the last of them does.
    co_await batch.wait(steady_clock::time_point::max());
  }
}

}  // namespace opentabs::net
