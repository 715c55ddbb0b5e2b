#include <fcntl.h>
#include <unistd.h>

#include <cstdio>

#include "platform/output_capture.hpp"
#include "platform/posix_io.hpp"

namespace opentabs::platform {

std::error_code output_capture::start() {
  posix::unique_fd read_end[2], write_end[2];
  for (int i = 0; i < 2; ++i) {
    int fds[2];
    if (::pipe(fds) != 0) return posix::last_error();
    read_end[i].reset(fds[0]);
    write_end[i].reset(fds[1]);
    ::fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    ::fcntl(fds[1], F_SETFD, FD_CLOEXEC);
  }
  std::fflush(stdout);
  std::fflush(stderr);
  const int standard[2] = {STDOUT_FILENO, STDERR_FILENO};
  for (int i = 0; i < 2; ++i) {
    saved_[i] = ::fcntl(standard[i], F_DUPFD_CLOEXEC, 3);
    ::dup2(write_end[i].get(), standard[i]);
    read_[i] = read_end[i].release();
  }
  return {};
}

void output_capture::write_original(int which, std::string_view bytes) noexcept {
  if (saved_[which] >= 0) (void)posix::write_all(static_cast<int>(saved_[which]), bytes);
}

void output_capture::restore() noexcept {
  std::fflush(stdout);
  std::fflush(stderr);
  const int standard[2] = {STDOUT_FILENO, STDERR_FILENO};
  for (int i = 0; i < 2; ++i)
    if (saved_[i] >= 0) ::dup2(static_cast<int>(saved_[i]), standard[i]);
}

output_capture::~output_capture() {
  for (auto h : {saved_[0], saved_[1], read_[0], read_[1]}) close_handle(h);
}

}  // namespace opentabs::platform
