#include "platform/posix_io.hpp"

#include <unistd.h>

#include <cerrno>

namespace opentabs::platform::posix {

std::error_code last_error() noexcept { return std::error_code(errno, std::system_category()); }

std::error_code write_all(int fd, std::string_view data) noexcept {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return last_error();
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return {};
}

unique_fd& unique_fd::operator=(unique_fd&& o) noexcept {
  if (this != &o) reset(o.release());
  return *this;
}

unique_fd::~unique_fd() { reset(); }

void unique_fd::reset(int fd) noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
}

}  // namespace opentabs::platform::posix
