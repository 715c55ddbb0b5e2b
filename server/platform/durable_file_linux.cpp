// Linux flushing: fsync for one file, syncfs(2) for a whole file system.
#include <fcntl.h>
#include <unistd.h>

#include "platform/durable_file.hpp"
#include "platform/posix_io.hpp"

namespace opentabs::platform {

std::error_code posix::flush_to_disk(int fd) noexcept {
  if (::fsync(fd) != 0) return last_error();
  return {};
}

std::error_code flush_filesystem(const std::filesystem::path& dir) {
  posix::unique_fd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() < 0) return posix::last_error();
  if (::syncfs(fd.get()) != 0) return posix::last_error();
  return {};
}

}  // namespace opentabs::platform
