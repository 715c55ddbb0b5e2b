#include <fcntl.h>
#include <unistd.h>

#include <system_error>

#include "platform/async_stdio.hpp"

namespace opentabs::platform {

bool attach_standard_stream(async_stream& stream, standard_stream which) {
  const int fd = which == standard_stream::input ? STDIN_FILENO : STDOUT_FILENO;
  const int copy = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
  if (copy < 0) return false;
  asio::error_code ec;
  stream.assign(copy, ec);  // epoll refuses regular files and /dev/null
  if (ec) {
    ::close(copy);
    return false;
  }
  return true;
}

bool attach_pipe(async_stream& stream, native_handle pipe) {
  asio::error_code ec;
  stream.assign(static_cast<int>(pipe), ec);
  if (ec) close_handle(pipe);
  return !ec;
}

}  // namespace opentabs::platform
