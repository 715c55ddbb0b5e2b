#include <unistd.h>

#include "platform/process_identity.hpp"

namespace opentabs::platform {

long current_process_id() noexcept { return static_cast<long>(::getpid()); }

}  // namespace opentabs::platform
