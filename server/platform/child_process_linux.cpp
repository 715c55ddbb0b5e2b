// Linux specifics of child processes: posix_spawn closes our descriptors with
// addclosefrom_np (Asio's sockets are not close-on-exec), and a pidfd says when a child exits.
#include <fcntl.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

#include "platform/posix_io.hpp"

namespace opentabs::platform::posix {

void close_inherited_descriptors(void* file_actions) noexcept {
  posix_spawn_file_actions_addclosefrom_np(static_cast<posix_spawn_file_actions_t*>(file_actions), 3);
}

short extra_spawn_flags() noexcept { return 0; }

int open_exit_descriptor(long pid) noexcept {
#ifdef SYS_pidfd_open
  int fd = static_cast<int>(::syscall(SYS_pidfd_open, static_cast<pid_t>(pid), 0));
  if (fd >= 0) ::fcntl(fd, F_SETFD, FD_CLOEXEC);
  return fd;
#else
  (void)pid;
  errno = ENOSYS;
  return -1;
#endif
}

}  // namespace opentabs::platform::posix
