#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <cerrno>

#include "platform/posix_io.hpp"

namespace opentabs::platform::posix {

std::error_code rename_no_replace(int dir_fd, const char* from, const char* to) noexcept {
  if (::renameat2(dir_fd, from, dir_fd, to, RENAME_NOREPLACE) == 0) return {};
  if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP) return last_error();
  // A file system without RENAME_NOREPLACE: a hard link fails with EEXIST just the same.
  if (::linkat(dir_fd, from, dir_fd, to, 0) != 0) return last_error();
  ::unlinkat(dir_fd, from, 0);
  return {};
}

}  // namespace opentabs::platform::posix
