#include "platform/windows_handle.hpp"

#include <windows.h>

namespace opentabs::platform::windows {

std::error_code last_error() noexcept {
  return std::error_code(static_cast<int>(::GetLastError()), std::system_category());
}

unique_handle& unique_handle::operator=(unique_handle&& o) noexcept {
  if (this != &o) reset(o.release());
  return *this;
}

unique_handle::~unique_handle() { reset(); }

bool unique_handle::valid() const noexcept { return h_ != nullptr && h_ != INVALID_HANDLE_VALUE; }

void unique_handle::reset(void* h) noexcept {
  if (valid()) ::CloseHandle(h_);
  h_ = h;
}

std::wstring widen(const std::string& utf8) {
  if (utf8.empty()) return {};
  int n = ::MultiByteToWideChar(CP_UTF8, 0, utf8.data(), static_cast<int>(utf8.size()), nullptr, 0);
  std::wstring out(static_cast<std::size_t>(n > 0 ? n : 0), L'\0');
  if (n > 0) ::MultiByteToWideChar(CP_UTF8, 0, utf8.data(), static_cast<int>(utf8.size()), out.data(), n);
  return out;
}

std::string narrow(const std::wstring& utf16) {
  if (utf16.empty()) return {};
  int n = ::WideCharToMultiByte(CP_UTF8, 0, utf16.data(), static_cast<int>(utf16.size()), nullptr, 0, nullptr, nullptr);
  std::string out(static_cast<std::size_t>(n > 0 ? n : 0), '\0');
  if (n > 0)
    ::WideCharToMultiByte(CP_UTF8, 0, utf16.data(), static_cast<int>(utf16.size()), out.data(), n, nullptr, nullptr);
  return out;
}

}  // namespace opentabs::platform::windows
