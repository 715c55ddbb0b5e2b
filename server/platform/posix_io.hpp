// Descriptor helpers shared by the POSIX files of the seam (Linux and macOS); no other
// module includes this header.
#pragma once

#include <string_view>
#include <system_error>

#include "platform/file_handle.hpp"

namespace opentabs::platform::posix {

// The last OS error (errno) as an error_code.
std::error_code last_error() noexcept;

// Writes all of `data` to `fd`, retrying short writes and EINTR.
std::error_code write_all(int fd, std::string_view data) noexcept;

// Flushes a file's data and metadata to the disk itself (Linux: fsync; macOS: F_FULLFSYNC,
// since its fsync stops at the drive's cache).
std::error_code flush_to_disk(int fd) noexcept;

// Closes `fd` if it is open; the owner of a descriptor that must close on every path.
class unique_fd {
 public:
  unique_fd() = default;
  explicit unique_fd(int fd) noexcept : fd_(fd) {}
  unique_fd(unique_fd&& o) noexcept : fd_(o.release()) {}
  unique_fd& operator=(unique_fd&& o) noexcept;
  unique_fd(const unique_fd&) = delete;
  unique_fd& operator=(const unique_fd&) = delete;
  ~unique_fd();
  int get() const noexcept { return fd_; }
  int release() noexcept {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }
  void reset(int fd = -1) noexcept;

 private:
  int fd_ = -1;
};

}  // namespace opentabs::platform::posix

namespace opentabs::platform::posix {

// posix_spawn settings that differ between Linux and macOS, for child_process_posix.cpp:
// how the child is kept from inheriting our descriptors beyond 0-2 (`file_actions` is a
// posix_spawn_file_actions_t*), and the extra posix_spawnattr flags that needs.
void close_inherited_descriptors(void* file_actions) noexcept;
short extra_spawn_flags() noexcept;

// Copies the modification and status-change times of a `struct stat` (`stat_buf`) into
// `out`: Linux names the fields st_mtim/st_ctim, macOS st_mtimespec/st_ctimespec.
void copy_times(const void* stat_buf, file_facts& out) noexcept;

// The facts of a `struct stat` (`stat_buf`).
file_facts facts_from_stat(const void* stat_buf) noexcept;

// renameat within one folder that fails with EEXIST instead of replacing (Linux:
// renameat2 RENAME_NOREPLACE, or link + unlink where the file system lacks it; macOS:
// renameatx_np RENAME_EXCL).
std::error_code rename_no_replace(int dir_fd, const char* from, const char* to) noexcept;

// The Linux pidfd of `pid` (close-on-exec), or -1 where the OS has none.
int open_exit_descriptor(long pid) noexcept;

}  // namespace opentabs::platform::posix
