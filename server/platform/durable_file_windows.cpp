// Windows: the temp file is flushed with FlushFileBuffers and moved over the target with
// MoveFileExW(MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH), which returns only once
// the move is on the disk.  Permission bits do not exist here (see file_access.hpp).
#include "platform/durable_file.hpp"

#include <windows.h>

#include "platform/temp_name.hpp"
#include "platform/windows_handle.hpp"

namespace opentabs::platform {

namespace {

std::error_code write_all(void* h, std::string_view data) {
  while (!data.empty()) {
    DWORD chunk = data.size() > 0x40000000 ? 0x40000000 : static_cast<DWORD>(data.size());
    DWORD written = 0;
    if (!::WriteFile(h, data.data(), chunk, &written, nullptr)) return windows::last_error();
    data.remove_prefix(written);
  }
  return {};
}

}  // namespace

std::error_code replace_file(const std::filesystem::path& path, std::string_view content, unsigned /*mode*/,
                             durability /*when*/) {
  // Every replace is flushed at once: Windows has no per-volume flush an unprivileged
  // process may call, so next_flush has no later moment to wait for.
  const auto tmp = temp_name_beside(path);
  windows::unique_handle h(::CreateFileW(tmp.c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, nullptr));
  if (!h.valid()) return windows::last_error();
  std::error_code ec = write_all(h.get(), content);
  if (!ec && !::FlushFileBuffers(h.get())) ec = windows::last_error();
  h.reset();
  if (!ec && !::MoveFileExW(tmp.c_str(), path.c_str(), MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
    ec = windows::last_error();
  if (ec) ::DeleteFileW(tmp.c_str());
  return ec;
}

std::error_code flush_filesystem(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return ec ? ec : std::make_error_code(std::errc::not_a_directory);
  return {};
}

std::error_code append_file(const std::filesystem::path& path, std::string_view content, unsigned /*mode*/) {
  windows::unique_handle h(::CreateFileW(path.c_str(), FILE_APPEND_DATA, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                                         nullptr, OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr));
  if (!h.valid()) return windows::last_error();
  return write_all(h.get(), content);
}

std::error_code read_file(const std::filesystem::path& path, std::size_t max_bytes, std::string& out) {
  out.clear();
  windows::unique_handle h(::CreateFileW(path.c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                                         nullptr, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr));
  if (!h.valid()) {
    DWORD e = ::GetLastError();
    if (e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND) return std::make_error_code(std::errc::no_such_file_or_directory);
    return std::error_code(static_cast<int>(e), std::system_category());
  }
  char buf[65536];
  for (;;) {
    DWORD n = 0;
    if (!::ReadFile(h.get(), buf, sizeof buf, &n, nullptr)) return windows::last_error();
    if (n == 0) return {};
    if (out.size() + n > max_bytes) {
      out.clear();
      return std::make_error_code(std::errc::file_too_large);
    }
    out.append(buf, n);
  }
}

}  // namespace opentabs::platform
