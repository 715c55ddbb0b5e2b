#include <malloc.h>

#include "platform/process_setup.hpp"

namespace opentabs::platform {

void release_free_memory() noexcept { ::malloc_trim(0); }

}  // namespace opentabs::platform
