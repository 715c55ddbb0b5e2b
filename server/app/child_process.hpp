// Running a helper program (npm, xdg-open) from the io thread without blocking it:
// platform::spawn with an argv (never a shell), stdin from the null device, stdout and stderr
// read through Asio streams into bounded buffers, the exit noticed through
// platform::exit_watch, and a deadline after which the child's whole process group is killed.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "net/asio.hpp"
#include "net/task_group.hpp"
#include "util/result.hpp"

namespace opentabs::app {

struct process_options {
  std::chrono::milliseconds timeout{10'000};
  // Per stream; output past it is read and dropped (the child never blocks on a full pipe).
  std::size_t max_output_bytes = 4 * 1024 * 1024;
  // true: on timeout the child's process group gets SIGKILL (npm and whatever it started).
  // false: a launcher (xdg-open) that is still running is left alone and reaped whenever
  // it exits.
  bool kill_on_timeout = true;
};

struct process_outcome {
  int exit_code = -1;    // -1 when it did not exit normally (signal, timeout)
  int term_signal = 0;   // the signal that ended it, if any
  bool timed_out = false;
  std::string out;
  std::string err;
  bool out_truncated = false;
  bool err_truncated = false;
};

// Error codes: "not_found" (the program is not on PATH), "spawn_failed".  A program that ran
// and failed is not an error here: look at exit_code / timed_out.  Runs on `background`'s
// executor; the reaper of a child still running after the call (a launcher, or one that
// survived SIGKILL for a while) is a task of `background`.
net::awaitable<result<process_outcome>> run_process(net::task_group& background, std::vector<std::string> argv,
                                                    process_options options);

}  // namespace opentabs::app
