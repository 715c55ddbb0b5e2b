// macOS flushing: fsync only reaches the drive's cache, F_FULLFSYNC reaches the medium.
// There is no syncfs: sync() schedules every dirty buffer and a full flush through the
// folder's descriptor then empties the drive's cache.
#include <fcntl.h>
#include <unistd.h>

#include "platform/durable_file.hpp"
#include "platform/posix_io.hpp"

namespace opentabs::platform {

std::error_code posix::flush_to_disk(int fd) noexcept {
  if (::fcntl(fd, F_FULLFSYNC) == 0) return {};
  // File systems without F_FULLFSYNC (network, FAT) still honour fsync.
  if (::fsync(fd) != 0) return last_error();
  return {};
}

std::error_code flush_filesystem(const std::filesystem::path& dir) {
  posix::unique_fd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() < 0) return posix::last_error();
  ::sync();
  return posix::flush_to_disk(fd.get());
}

}  // namespace opentabs::platform
