#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "platform/posix_io.hpp"
#include "platform/standard_streams.hpp"

namespace opentabs::platform {

std::ptrdiff_t read_stdin(char* buf, std::size_t size) noexcept {
  for (;;) {
    ssize_t n = ::read(STDIN_FILENO, buf, size);
    if (n >= 0 || errno != EINTR) return n;
  }
}

bool write_stdout(std::string_view bytes) noexcept { return !posix::write_all(STDOUT_FILENO, bytes); }

void line_buffer_stdout() noexcept { std::setvbuf(stdout, nullptr, _IOLBF, 0); }

bool is_terminal(standard_stream s) noexcept {
  int fd = s == standard_stream::input ? STDIN_FILENO : s == standard_stream::output ? STDOUT_FILENO : STDERR_FILENO;
  return ::isatty(fd) == 1;
}

std::optional<std::size_t> terminal_columns() noexcept {
  winsize ws{};
  if (::isatty(STDOUT_FILENO) == 1 && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return std::nullopt;
}

}  // namespace opentabs::platform
