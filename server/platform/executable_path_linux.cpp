// Linux: the kernel's link /proc/self/exe.
#include "platform/executable_path.hpp"

namespace opentabs::platform {

std::filesystem::path executable_path(std::error_code& ec) {
  ec.clear();
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  return p;
}

}  // namespace opentabs::platform
