// Batches of up to `width` tasks, each co_spawned; a timer cancelled by the last one to finish
// wakes the caller (the timer is the join point: nothing else wakes it).
#include "net/run_bounded.hpp"

#include <algorithm>
#include <exception>
#include <memory>
#include <string>

#include "util/log.hpp"

namespace opentabs::net {

awaitable<void> run_bounded(asio::any_io_executor ex, std::vector<task_fn> tasks, std::size_t width,
                            std::string_view what) {
  struct join {
    explicit join(asio::any_io_executor e) : done(e) {}
    asio::steady_timer done;
    std::size_t left = 0;
  };
  width = std::max<std::size_t>(1, width);
  for (std::size_t i = 0; i < tasks.size(); i += width) {
    auto j = std::make_shared<join>(ex);
    std::size_t end = std::min(tasks.size(), i + width);
    j->left = end - i;
    for (std::size_t k = i; k < end; ++k) {
      asio::co_spawn(
          ex,
          [j, task = std::move(tasks[k]), label = std::string(what)]() -> awaitable<void> {
            try {
              co_await task();
            } catch (const std::exception& e) {
              log::warn(label + " failed: " + e.what());
            }
            if (--j->left == 0) j->done.cancel();
          },
          asio::detached);
    }
    if (j->left > 0) {
      j->done.expires_at(asio::steady_timer::time_point::max());
      co_await j->done.async_wait(as_value);
    }
  }
}

}  // namespace opentabs::net
