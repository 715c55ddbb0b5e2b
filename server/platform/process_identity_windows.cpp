// Windows: a process handle's exit code says whether it runs; the image path is the only
// part of another process's command line readable without debugging rights.
#include <windows.h>

#include "platform/process_identity.hpp"
#include "platform/windows_handle.hpp"

namespace opentabs::platform {

long current_process_id() noexcept { return static_cast<long>(::GetCurrentProcessId()); }

bool process_alive(long pid) {
  if (pid <= 0) return false;
  windows::unique_handle h(::OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, static_cast<DWORD>(pid)));
  if (!h.valid()) return ::GetLastError() == ERROR_ACCESS_DENIED;  // exists, but not ours to query
  DWORD code = 0;
  return ::GetExitCodeProcess(h.get(), &code) && code == STILL_ACTIVE;
}

std::optional<std::vector<std::string>> process_command_line(long pid) {
  if (pid <= 0) return std::nullopt;
  windows::unique_handle h(::OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, static_cast<DWORD>(pid)));
  if (!h.valid()) return std::nullopt;
  std::wstring image(32768, L'\0');
  DWORD size = static_cast<DWORD>(image.size());
  if (!::QueryFullProcessImageNameW(h.get(), 0, image.data(), &size)) return std::nullopt;
  image.resize(size);
  return std::vector<std::string>{windows::narrow(image)};
}

}  // namespace opentabs::platform
