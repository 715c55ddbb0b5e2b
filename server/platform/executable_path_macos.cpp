// macOS: _NSGetExecutablePath, resolved through symlinks to the real file.
#include "platform/executable_path.hpp"

#include <mach-o/dyld.h>

#include <cstdint>
#include <vector>

namespace opentabs::platform {

std::filesystem::path executable_path(std::error_code& ec) {
  ec.clear();
  std::uint32_t size = 4096;
  std::vector<char> buf(size);
  if (_NSGetExecutablePath(buf.data(), &size) != 0) {  // size now holds the length needed
    buf.resize(size);
    if (_NSGetExecutablePath(buf.data(), &size) != 0) {
      ec = std::make_error_code(std::errc::filename_too_long);
      return {};
    }
  }
  auto p = std::filesystem::canonical(buf.data(), ec);
  if (ec) return {};
  return p;
}

}  // namespace opentabs::platform
