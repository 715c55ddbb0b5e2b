// Windows: GetModuleFileNameW of the process image, grown until the path fits.
#include "platform/executable_path.hpp"

#include <windows.h>

#include <string>

namespace opentabs::platform {

std::filesystem::path executable_path(std::error_code& ec) {
  ec.clear();
  std::wstring buf(MAX_PATH, L'\0');
  for (int attempt = 0; attempt < 6; ++attempt) {
    DWORD n = ::GetModuleFileNameW(nullptr, buf.data(), static_cast<DWORD>(buf.size()));
    if (n == 0) {
      ec = std::error_code(static_cast<int>(::GetLastError()), std::system_category());
      return {};
    }
    if (n < buf.size()) {
      buf.resize(n);
      return std::filesystem::path(buf);
    }
    buf.resize(buf.size() * 2);
  }
  ec = std::make_error_code(std::errc::filename_too_long);
  return {};
}

}  // namespace opentabs::platform
