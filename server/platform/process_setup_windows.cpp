// Windows: sockets have no descriptor limit to raise, and a broken pipe is an error code,
// never a signal.
#include <malloc.h>

#include "platform/process_setup.hpp"

namespace opentabs::platform {

bool raise_open_file_limit(std::uint64_t /*enough*/) noexcept { return true; }

void ignore_broken_pipes() noexcept {}

void release_free_memory() noexcept { ::_heapmin(); }

}  // namespace opentabs::platform
