// Windows: anonymous pipes become the process's standard handles (SetStdHandle) and the C
// runtime's descriptors 1 and 2 (_dup2 of an _open_osfhandle descriptor).
#include <windows.h>
#include <fcntl.h>
#include <io.h>

#include <cstdio>

#include "platform/output_capture.hpp"

namespace opentabs::platform {

namespace {

constexpr DWORD kStandard[2] = {STD_OUTPUT_HANDLE, STD_ERROR_HANDLE};

}  // namespace

std::error_code output_capture::start() {
  std::fflush(stdout);
  std::fflush(stderr);
  for (int i = 0; i < 2; ++i) {
    HANDLE r = nullptr, w = nullptr;
    if (!::CreatePipe(&r, &w, nullptr, 0))
      return std::error_code(static_cast<int>(::GetLastError()), std::system_category());
    // A handle of our own to the original stream: the _dup2 below closes descriptor i + 1,
    // and with it the handle the C runtime held (GetStdHandle's).
    HANDLE self = ::GetCurrentProcess(), original = nullptr;
    if (!::DuplicateHandle(self, ::GetStdHandle(kStandard[i]), self, &original, 0, FALSE, DUPLICATE_SAME_ACCESS))
      original = nullptr;
    saved_[i] = reinterpret_cast<native_handle>(original);
    ::SetStdHandle(kStandard[i], w);
    int fd = ::_open_osfhandle(reinterpret_cast<intptr_t>(w), _O_BINARY);
    if (fd >= 0) {
      ::_dup2(fd, i + 1);
      ::_close(fd);
    }
    read_[i] = reinterpret_cast<native_handle>(r);
  }
  return {};
}

void output_capture::write_original(int which, std::string_view bytes) noexcept {
  HANDLE h = reinterpret_cast<HANDLE>(saved_[which]);
  while (!bytes.empty() && h != nullptr && h != INVALID_HANDLE_VALUE) {
    DWORD n = 0;
    if (!::WriteFile(h, bytes.data(), static_cast<DWORD>(bytes.size() > 0x40000000 ? 0x40000000 : bytes.size()), &n, nullptr) || n == 0)
      return;
    bytes.remove_prefix(n);
  }
}

void output_capture::restore() noexcept {
  std::fflush(stdout);
  std::fflush(stderr);
  for (int i = 0; i < 2; ++i) {
    HANDLE original = reinterpret_cast<HANDLE>(saved_[i]);
    ::SetStdHandle(kStandard[i], original);
    int fd = ::_open_osfhandle(reinterpret_cast<intptr_t>(original), _O_BINARY);
    if (fd >= 0) ::_dup2(fd, i + 1);  // closes the pipe's write end held by descriptor i + 1
  }
}

output_capture::~output_capture() {
  for (auto h : read_) close_handle(h);
}

}  // namespace opentabs::platform
