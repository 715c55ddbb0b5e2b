// Windows: no permission bits (see file_access.hpp); the profile's ACL keeps the files private.
#include <windows.h>

#include "platform/file_access.hpp"

namespace opentabs::platform {

std::error_code set_mode(const std::filesystem::path& path, unsigned /*mode*/) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return ec ? ec : std::make_error_code(std::errc::no_such_file_or_directory);
  return {};
}

std::error_code create_directories_with_mode(const std::filesystem::path& path, unsigned /*mode*/) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  return ec;
}

std::error_code make_directory(const std::filesystem::path& path, unsigned /*mode*/, bool& created) {
  created = ::CreateDirectoryW(path.c_str(), nullptr) != 0;
  if (created || ::GetLastError() == ERROR_ALREADY_EXISTS) return {};
  return std::error_code(static_cast<int>(::GetLastError()), std::system_category());
}

bool is_executable(const std::filesystem::path& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec);
}

unsigned file_mode(const std::filesystem::path& path, std::error_code& ec) {
  ec.clear();
  if (!std::filesystem::exists(path, ec) && !ec) ec = std::make_error_code(std::errc::no_such_file_or_directory);
  return 0;
}

}  // namespace opentabs::platform
