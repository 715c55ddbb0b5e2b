// current_os() of the macos build.
#include "platform/os.hpp"

namespace opentabs::platform {

os current_os() noexcept { return os::macos; }

}  // namespace opentabs::platform
