// The environment (read as UTF-16 and returned as UTF-8) and the profile folder the shell
// knows on Windows.
#include <windows.h>
#include <shlobj.h>

#include "platform/folders.hpp"
#include "platform/windows_handle.hpp"

namespace opentabs::platform {

std::optional<std::string> environment_variable(std::string_view name) {
  auto wide = windows::widen(std::string(name));
  DWORD n = ::GetEnvironmentVariableW(wide.c_str(), nullptr, 0);
  if (n == 0) return std::nullopt;
  std::wstring value(n, L'\0');
  n = ::GetEnvironmentVariableW(wide.c_str(), value.data(), n);
  value.resize(n);
  return windows::narrow(value);
}

std::optional<std::filesystem::path> account_home_directory() {
  PWSTR path = nullptr;
  std::optional<std::filesystem::path> out;
  if (SUCCEEDED(::SHGetKnownFolderPath(FOLDERID_Profile, 0, nullptr, &path)) && path) out = std::filesystem::path(path);
  ::CoTaskMemFree(path);
  return out;
}

}  // namespace opentabs::platform
