// current_os() of the linux build.
#include "platform/os.hpp"

namespace opentabs::platform {

os current_os() noexcept { return os::linux_; }

}  // namespace opentabs::platform
