// file_handle on Windows: CreateFileW with FILE_FLAG_OPEN_REPARSE_POINT (a link is opened
// as itself and refused, never followed), facts from GetFileInformationByHandle.
#include <windows.h>

#include "platform/file_handle.hpp"
#include "platform/windows_handle.hpp"

namespace opentabs::platform {

namespace {

HANDLE as_handle(native_handle h) { return reinterpret_cast<HANDLE>(h); }

file_facts facts_from(const BY_HANDLE_FILE_INFORMATION& info) {
  file_facts f;
  if (info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) f.kind = file_kind::symlink;
  else if (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) f.kind = file_kind::directory;
  else f.kind = file_kind::regular;
  f.size = (static_cast<std::uint64_t>(info.nFileSizeHigh) << 32) | info.nFileSizeLow;
  f.links = info.nNumberOfLinks;
  f.device = info.dwVolumeSerialNumber;
  f.inode = (static_cast<std::uint64_t>(info.nFileIndexHigh) << 32) | info.nFileIndexLow;
  // FILETIME counts 100 ns steps since 1601; the Unix epoch is 11644473600 s later.
  const auto ticks = (static_cast<std::int64_t>(info.ftLastWriteTime.dwHighDateTime) << 32) | info.ftLastWriteTime.dwLowDateTime;
  f.modified_ns = (ticks - 116444736000000000LL) * 100;
  f.changed_ns = f.modified_ns;
  return f;
}

constexpr DWORD kShareAll = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;

}  // namespace

std::error_code facts_of(const std::filesystem::path& path, file_facts& out, bool follow_links) {
  DWORD flags = FILE_FLAG_BACKUP_SEMANTICS | (follow_links ? 0 : FILE_FLAG_OPEN_REPARSE_POINT);
  windows::unique_handle h(::CreateFileW(path.c_str(), FILE_READ_ATTRIBUTES, kShareAll, nullptr, OPEN_EXISTING, flags, nullptr));
  if (!h.valid()) return windows::last_error();
  BY_HANDLE_FILE_INFORMATION info{};
  if (!::GetFileInformationByHandle(h.get(), &info)) return windows::last_error();
  out = facts_from(info);
  return {};
}

file_handle file_handle::open(const std::filesystem::path& path, access how, unsigned /*create_mode*/, std::error_code& ec) {
  ec.clear();
  DWORD desired = how == access::read ? GENERIC_READ : how == access::append ? FILE_APPEND_DATA : GENERIC_WRITE;
  DWORD disposition = how == access::read ? OPEN_EXISTING : how == access::append ? OPEN_ALWAYS : CREATE_ALWAYS;
  HANDLE h = ::CreateFileW(path.c_str(), desired | FILE_READ_ATTRIBUTES, kShareAll, nullptr, disposition,
                           FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT, nullptr);
  if (h == INVALID_HANDLE_VALUE) {
    ec = windows::last_error();
    return {};
  }
  file_handle out(reinterpret_cast<native_handle>(h));
  file_facts f;
  if (out.facts(f) || f.kind == file_kind::symlink) {
    ec = std::make_error_code(std::errc::too_many_symbolic_link_levels);
    return {};
  }
  return out;
}

std::error_code file_handle::facts(file_facts& out) const {
  BY_HANDLE_FILE_INFORMATION info{};
  if (!::GetFileInformationByHandle(as_handle(h_), &info)) return windows::last_error();
  out = facts_from(info);
  return {};
}

std::size_t file_handle::write(std::string_view data, std::error_code& ec) noexcept {
  ec.clear();
  std::size_t done = 0;
  while (done < data.size()) {
    DWORD chunk = data.size() - done > 0x40000000 ? 0x40000000 : static_cast<DWORD>(data.size() - done);
    DWORD n = 0;
    if (!::WriteFile(as_handle(h_), data.data() + done, chunk, &n, nullptr) || n == 0) {
      ec = windows::last_error();
      break;
    }
    done += n;
  }
  return done;
}

std::ptrdiff_t file_handle::read_some(char* buf, std::size_t size) noexcept {
  DWORD n = 0;
  DWORD want = size > 0x40000000 ? 0x40000000 : static_cast<DWORD>(size);
  if (!::ReadFile(as_handle(h_), buf, want, &n, nullptr)) return -1;
  return static_cast<std::ptrdiff_t>(n);
}

std::ptrdiff_t file_handle::read_at(std::uint64_t offset, char* buf, std::size_t size) noexcept {
  // A positioned ReadFile on a synchronous handle moves the file pointer too; pread does
  // not, so the pointer is put back for read_some.
  LARGE_INTEGER here{};
  const bool restore = ::SetFilePointerEx(as_handle(h_), LARGE_INTEGER{}, &here, FILE_CURRENT) != 0;
  struct put_back {
    HANDLE h;
    bool on;
    LARGE_INTEGER at;
    ~put_back() {
      if (on) ::SetFilePointerEx(h, at, nullptr, FILE_BEGIN);
    }
  } guard{as_handle(h_), restore, here};
  OVERLAPPED at{};
  at.Offset = static_cast<DWORD>(offset & 0xffffffffU);
  at.OffsetHigh = static_cast<DWORD>(offset >> 32);
  DWORD n = 0;
  DWORD want = size > 0x40000000 ? 0x40000000 : static_cast<DWORD>(size);
  if (!::ReadFile(as_handle(h_), buf, want, &n, &at)) return ::GetLastError() == ERROR_HANDLE_EOF ? 0 : -1;
  return static_cast<std::ptrdiff_t>(n);
}

std::error_code file_handle::flush_to_disk() noexcept {
  if (!::FlushFileBuffers(as_handle(h_))) return windows::last_error();
  return {};
}

bool file_handle::try_lock_exclusive() noexcept {
  OVERLAPPED whole{};
  return ::LockFileEx(as_handle(h_), LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0, MAXDWORD, MAXDWORD, &whole) != 0;
}

std::error_code file_handle::set_mode(unsigned /*mode*/) noexcept { return {}; }

}  // namespace opentabs::platform
