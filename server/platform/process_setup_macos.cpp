#include <malloc/malloc.h>

#include "platform/process_setup.hpp"

namespace opentabs::platform {

void release_free_memory() noexcept { ::malloc_zone_pressure_relief(nullptr, 0); }

}  // namespace opentabs::platform
