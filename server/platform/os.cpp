#include "platform/os.hpp"

namespace opentabs::platform {

std::string_view os_name(os target) noexcept {
  switch (target) {
    case os::linux_: return "linux";
    case os::macos: return "macos";
    case os::windows: return "windows";
  }
  return "unknown";
}

std::string_view folder_opener(os target) noexcept {
  switch (target) {
    case os::linux_: return "xdg-open";
    case os::macos: return "open";
    case os::windows: return "explorer";
  }
  return "xdg-open";
}

}  // namespace opentabs::platform
