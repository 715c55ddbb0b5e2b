// Starting a child process: an explicit program or one found on PATH, with an argv (never a
// shell), stdin from the null device, stdout and stderr either into two pipes we read or
// appended to a file, and either its own session (a server that outlives us) or its own
// process group (so a deadline can end it and everything it started).  Exec failures are
// reported by spawn(), never as a silently dead child.  No descriptor or handle of ours but
// the three standard streams reaches the child.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace opentabs::platform {

// A descriptor (POSIX) or HANDLE (Windows) carried without OS headers; -1 is none.
using native_handle = std::intptr_t;
inline constexpr native_handle kNoHandle = -1;

void close_handle(native_handle h) noexcept;

enum class child_group {
  own_session,        // detached from our terminal and session: survives us
  own_process_group,  // still ours, but kill_group() reaches its descendants too
};

struct child_spec {
  // argv[0] is the name the child sees, and the program looked up on PATH when `program`
  // is empty.
  std::vector<std::string> argv;
  std::filesystem::path program;
  child_group group = child_group::own_process_group;
  // Non-empty: stdout and stderr appended to this file (created owner-only).  Empty: two
  // pipes whose read ends the child object hands out.
  std::filesystem::path output_file;
  // Set in the child's environment on top of ours (same-named entries replaced).
  std::vector<std::pair<std::string, std::string>> extra_env;
};

struct exit_status {
  int code = -1;   // the exit code; -1 when a signal ended it or the status is unknown
  int signal = 0;  // POSIX: the signal that ended it
};

// One started child.  Move-only; the destructor closes what was not handed out, and never
// kills or waits (a detached server must outlive this object).
class child {
 public:
  child() = default;
  child(child&& other) noexcept;
  child& operator=(child&& other) noexcept;
  child(const child&) = delete;
  child& operator=(const child&) = delete;
  ~child();

  long pid() const noexcept { return pid_; }
  // The read ends of the child's stdout and stderr pipes (kNoHandle with output_file);
  // the caller owns what it takes.
  native_handle take_stdout() noexcept { return std::exchange(out_, kNoHandle); }
  native_handle take_stderr() noexcept { return std::exchange(err_, kNoHandle); }
  // A handle that becomes readable (Linux pidfd) or signalled (Windows process handle)
  // when the child exits; kNoHandle where the OS has none (macOS: poll try_wait()).  The
  // caller owns it.
  native_handle take_exit_handle() noexcept;

  // nullopt while it runs; its status once it has exited (and it is reaped then).  A child
  // already reaped, or not ours, gives the unknown status.
  std::optional<exit_status> try_wait();
  exit_status wait();
  bool reaped() const noexcept { return reaped_; }
  // Ends the child and its process group (POSIX: SIGKILL, or SIGTERM when !force; Windows:
  // the job object an own_process_group child runs in, so its descendants end too, or
  // TerminateProcess for a detached one).  Never after it was reaped: the pid may be someone
  // else's by then.
  void kill_group(bool force) noexcept;

 private:
  friend std::error_code spawn(const child_spec& spec, child& out);
  void close_all() noexcept;
  long pid_ = -1;
  native_handle process_ = kNoHandle;  // Windows: the process handle
  native_handle job_ = kNoHandle;      // Windows: the job object of an own_process_group child
  native_handle out_ = kNoHandle;
  native_handle err_ = kNoHandle;
  bool reaped_ = false;
  std::optional<exit_status> status_;
};

// Asks process `pid` (any process, not only a child) to end: SIGTERM on POSIX, which a
// server answers with its orderly shutdown; TerminateProcess on Windows, which has no such
// request for a process without a window.
std::error_code request_termination(long pid);

// std::errc::no_such_file_or_directory when the program does not exist (or is not on PATH).
std::error_code spawn(const child_spec& spec, child& out);

// Blocking read of a pipe's read end: bytes read, 0 at its end, -1 on an error.
std::ptrdiff_t read_pipe(native_handle h, char* buf, std::size_t size) noexcept;

// Waits at most `timeout` for data or end of file on any of `pipes` (kNoHandle entries are
// skipped); bit i of the result is set when pipes[i] has something to read.
unsigned wait_readable(std::span<const native_handle> pipes, std::chrono::milliseconds timeout);

}  // namespace opentabs::platform
