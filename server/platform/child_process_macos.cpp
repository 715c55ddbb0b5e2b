// macOS specifics of child processes: POSIX_SPAWN_CLOEXEC_DEFAULT closes every descriptor
// the file actions do not name; there is no pidfd (callers poll try_wait()).
#include <spawn.h>

#include "platform/posix_io.hpp"

namespace opentabs::platform::posix {

void close_inherited_descriptors(void* /*file_actions*/) noexcept {}

short extra_spawn_flags() noexcept { return POSIX_SPAWN_CLOEXEC_DEFAULT; }

int open_exit_descriptor(long /*pid*/) noexcept { return -1; }

}  // namespace opentabs::platform::posix
