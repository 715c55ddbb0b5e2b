// current_os() of the windows build.
#include "platform/os.hpp"

namespace opentabs::platform {

os current_os() noexcept { return os::windows; }

}  // namespace opentabs::platform
