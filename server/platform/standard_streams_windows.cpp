// Windows: the standard handles read and written with ReadFile/WriteFile (never through the
// C runtime's text mode), consoles detected with GetConsoleMode.
#include <windows.h>

#include <cstdio>

#include "platform/standard_streams.hpp"

namespace opentabs::platform {

namespace {

HANDLE handle_of(standard_stream s) {
  return ::GetStdHandle(s == standard_stream::input ? STD_INPUT_HANDLE
                        : s == standard_stream::output ? STD_OUTPUT_HANDLE
                                                       : STD_ERROR_HANDLE);
}

}  // namespace

std::ptrdiff_t read_stdin(char* buf, std::size_t size) noexcept {
  DWORD n = 0;
  DWORD want = size > 0x40000000 ? 0x40000000 : static_cast<DWORD>(size);
  if (!::ReadFile(handle_of(standard_stream::input), buf, want, &n, nullptr))
    return ::GetLastError() == ERROR_BROKEN_PIPE ? 0 : -1;
  return static_cast<std::ptrdiff_t>(n);
}

bool write_stdout(std::string_view bytes) noexcept {
  HANDLE out = handle_of(standard_stream::output);
  while (!bytes.empty()) {
    DWORD chunk = bytes.size() > 0x40000000 ? 0x40000000 : static_cast<DWORD>(bytes.size());
    DWORD n = 0;
    if (!::WriteFile(out, bytes.data(), chunk, &n, nullptr) || n == 0) return false;
    bytes.remove_prefix(n);
  }
  return true;
}

// The Windows C runtime has no line buffering (_IOLBF means full buffering there), so stdout
// is left unbuffered: each printf reaches the pipe whole.
void line_buffer_stdout() noexcept { std::setvbuf(stdout, nullptr, _IONBF, 0); }

bool is_terminal(standard_stream s) noexcept {
  DWORD mode = 0;
  return ::GetConsoleMode(handle_of(s), &mode) != 0;
}

std::optional<std::size_t> terminal_columns() noexcept {
  CONSOLE_SCREEN_BUFFER_INFO info{};
  if (!::GetConsoleScreenBufferInfo(handle_of(standard_stream::output), &info)) return std::nullopt;
  int cols = info.srWindow.Right - info.srWindow.Left + 1;
  if (cols <= 0) return std::nullopt;
  return static_cast<std::size_t>(cols);
}

}  // namespace opentabs::platform
