#include <stdio.h>

#include "platform/posix_io.hpp"

namespace opentabs::platform::posix {

std::error_code rename_no_replace(int dir_fd, const char* from, const char* to) noexcept {
  if (::renameatx_np(dir_fd, from, dir_fd, to, RENAME_EXCL) != 0) return last_error();
  return {};
}

}  // namespace opentabs::platform::posix
