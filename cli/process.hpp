// Child processes of the CLI: the detached background server (`start --background`), short
// helper commands whose output we need (npm), and questions about other processes (is pid
// N alive, is it an opentabs server), on top of platform/child_process and
// platform/process_identity.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "platform/child_process.hpp"
#include "platform/process_identity.hpp"
#include "util/result.hpp"

namespace opentabs::cli {

namespace fs = std::filesystem;

// Starts this executable with `args` in its own session with stdin from the null device and
// stdout and stderr appended to `log_file` (created 0600), plus `extra_env`.  Returns the
// child once it started (a start failure is reported, not a silent dead child).
result<platform::child> spawn_detached_self(const std::vector<std::string>& args, const fs::path& log_file,
                                 const std::vector<std::pair<std::string, std::string>>& extra_env);

// Non-blocking: has our child exited?  Returns its exit status (128 + signal when a signal
// ended it) when it has.
std::optional<int> reap_child(platform::child& child);

struct captured {
  int exit_code = -1;  // -1 when killed by a signal or timed out
  bool timed_out = false;
  std::string out;  // stdout (bounded)
  std::string err;  // stderr (bounded)
};

// Runs a program found on PATH, waits at most `timeout`, captures at most `max_bytes` of each
// stream.  `tick` is called about every 100 ms while waiting (progress feedback).  Error
// "not_found" when the program is not on PATH.
result<captured> run_capture(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                             const std::function<void()>& tick = {}, std::size_t max_bytes = 8 * 1024 * 1024);

using platform::process_alive;

// Whether `pid`'s command line looks like an opentabs server ("…opentabs start …").
bool looks_like_opentabs_server(long pid);

// The last `n` lines of a text file (bounded read), for error reports.
std::string tail_lines(const fs::path& file, std::size_t n);

}  // namespace opentabs::cli
