// Runs a set of coroutine tasks concurrently on one executor, at most `width` at a time, and
// resumes the caller when all of them have finished: fan-out to every browser profile, npm
// queries for several plugins.  A task that throws is logged (net/task_group) and counts as
// finished; it never takes the others down.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>
#include <vector>

#include "net/asio.hpp"

namespace opentabs::net {

using task_fn = std::function<awaitable<void>()>;

// `what` names the tasks in the log line of one that throws.
awaitable<void> run_bounded(asio::any_io_executor ex, std::vector<task_fn> tasks, std::size_t width,
                            std::string_view what);

}  // namespace opentabs::net
