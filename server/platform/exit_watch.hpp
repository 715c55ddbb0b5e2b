// Waiting on the io thread for a child process to exit: a Linux pidfd (readable at exit)
// or a Windows process handle (signalled at exit) registered with Asio.  macOS has neither;
// there watch() says so and the caller polls child::try_wait() on a timer.
#pragma once

#include <asio/any_io_executor.hpp>
#include <asio/awaitable.hpp>
#include <system_error>

#include "platform/child_process.hpp"

#if defined(_WIN32)
#include <asio/windows/object_handle.hpp>
#else
#include <asio/posix/stream_descriptor.hpp>
#endif

namespace opentabs::platform {

class exit_watch {
 public:
  explicit exit_watch(const asio::any_io_executor& ex) : handle_(ex) {}

  // Starts watching `c` (false: the OS offers nothing to wait on).
  bool watch(child& c);
  bool is_open() const { return handle_.is_open(); }
  // Completes once the child has exited (it is then ready to be reaped without blocking),
  // or with operation_aborted after cancel().
  asio::awaitable<std::error_code> wait();
  void cancel() noexcept;
  void close() noexcept;
  asio::any_io_executor get_executor() { return handle_.get_executor(); }

 private:
#if defined(_WIN32)
  asio::windows::object_handle handle_;
#else
  asio::posix::stream_descriptor handle_;
#endif
};

}  // namespace opentabs::platform
