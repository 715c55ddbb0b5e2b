// Handle helpers shared by the Windows files of the seam; no other module includes this
// header.  Handles are carried as void* so that the header needs no <windows.h>.
#pragma once

#include <string>
#include <system_error>

namespace opentabs::platform::windows {

// GetLastError() as an error_code.
std::error_code last_error() noexcept;

// Closes the handle (when valid) on every path out of a scope.
class unique_handle {
 public:
  unique_handle() = default;
  explicit unique_handle(void* h) noexcept : h_(h) {}
  unique_handle(unique_handle&& o) noexcept : h_(o.release()) {}
  unique_handle& operator=(unique_handle&& o) noexcept;
  unique_handle(const unique_handle&) = delete;
  unique_handle& operator=(const unique_handle&) = delete;
  ~unique_handle();
  void* get() const noexcept { return h_; }
  bool valid() const noexcept;
  void* release() noexcept {
    void* h = h_;
    h_ = nullptr;
    return h;
  }
  void reset(void* h = nullptr) noexcept;

 private:
  void* h_ = nullptr;
};

// UTF-8 to UTF-16 and back, for the W functions.
std::wstring widen(const std::string& utf8);
std::string narrow(const std::wstring& utf16);

}  // namespace opentabs::platform::windows
