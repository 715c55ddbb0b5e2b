// Windows: the folder stays open (so it cannot be removed or renamed meanwhile) and every
// entry is reached by name below it; a reparse point (symbolic link, junction) is refused
// wherever a POSIX build would refuse a link.
#include <windows.h>

#include "platform/directory_handle.hpp"
#include "platform/windows_handle.hpp"

namespace opentabs::platform {

namespace {

constexpr DWORD kShareAll = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;

native_handle open_folder(const std::filesystem::path& path, DWORD flags, std::error_code& ec) {
  HANDLE h = ::CreateFileW(path.c_str(), FILE_LIST_DIRECTORY | FILE_READ_ATTRIBUTES, kShareAll, nullptr, OPEN_EXISTING,
                           FILE_FLAG_BACKUP_SEMANTICS | flags, nullptr);
  if (h == INVALID_HANDLE_VALUE) {
    ec = windows::last_error();
    return kNoHandle;
  }
  return reinterpret_cast<native_handle>(h);
}

}  // namespace

directory_handle directory_handle::open(const std::filesystem::path& path, std::error_code& ec) {
  ec.clear();
  directory_handle d;
  d.h_ = open_folder(path, 0, ec);
  if (!ec) d.path_ = path;
  return d;
}

directory_handle directory_handle::open_subdirectory(const std::string& name, unsigned /*mode*/, std::error_code& ec) const {
  ec.clear();
  directory_handle d;
  const auto sub = path_ / windows::widen(name);
  if (!::CreateDirectoryW(sub.c_str(), nullptr) && ::GetLastError() != ERROR_ALREADY_EXISTS) {
    ec = windows::last_error();
    return d;
  }
  file_facts f;
  if (auto e = entry_facts(name, f)) {
    ec = e;
    return d;
  }
  if (f.kind == file_kind::symlink) ec = std::make_error_code(std::errc::too_many_symbolic_link_levels);
  else if (f.kind != file_kind::directory) ec = std::make_error_code(std::errc::not_a_directory);
  if (ec) return d;
  d.h_ = open_folder(sub, FILE_FLAG_OPEN_REPARSE_POINT, ec);
  if (!ec) d.path_ = sub;
  return d;
}

std::error_code directory_handle::entry_facts(const std::string& name, file_facts& out) const {
  return facts_of(path_ / windows::widen(name), out, false);
}

file_handle directory_handle::create_new_file(const std::string& name, unsigned /*mode*/, std::error_code& ec) const {
  ec.clear();
  const auto file = path_ / windows::widen(name);
  HANDLE h = ::CreateFileW(file.c_str(), GENERIC_WRITE | FILE_READ_ATTRIBUTES, kShareAll, nullptr, CREATE_NEW,
                           FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT, nullptr);
  if (h == INVALID_HANDLE_VALUE) {
    ec = ::GetLastError() == ERROR_FILE_EXISTS ? std::make_error_code(std::errc::file_exists) : windows::last_error();
    return {};
  }
  return file_handle::adopt(reinterpret_cast<native_handle>(h));
}

std::error_code directory_handle::rename(const std::string& from, const std::string& to, bool replace) const {
  const auto src = path_ / windows::widen(from);
  const auto dst = path_ / windows::widen(to);
  DWORD flags = MOVEFILE_WRITE_THROUGH | (replace ? MOVEFILE_REPLACE_EXISTING : 0);
  if (::MoveFileExW(src.c_str(), dst.c_str(), flags)) return {};
  if (::GetLastError() == ERROR_ALREADY_EXISTS || ::GetLastError() == ERROR_FILE_EXISTS)
    return std::make_error_code(std::errc::file_exists);
  return windows::last_error();
}

std::error_code directory_handle::remove(const std::string& name) const {
  const auto file = path_ / windows::widen(name);
  if (!::DeleteFileW(file.c_str())) return windows::last_error();
  return {};
}

// MoveFileEx with MOVEFILE_WRITE_THROUGH already waited for the disk.
std::error_code directory_handle::flush() const { return {}; }

}  // namespace opentabs::platform
