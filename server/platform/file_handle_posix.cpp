// file_handle on Linux and macOS: O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, fstat, pread.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "platform/file_handle.hpp"
#include "platform/posix_io.hpp"

namespace opentabs::platform {

namespace {

file_kind kind_of(mode_t m) {
  if (S_ISREG(m)) return file_kind::regular;
  if (S_ISDIR(m)) return file_kind::directory;
  if (S_ISLNK(m)) return file_kind::symlink;
  if (S_ISFIFO(m)) return file_kind::fifo;
  if (S_ISCHR(m) || S_ISBLK(m)) return file_kind::device;
  if (S_ISSOCK(m)) return file_kind::socket;
  return file_kind::other;
}

}  // namespace

file_facts posix::facts_from_stat(const void* stat_buf) noexcept {
  const auto& st = *static_cast<const struct stat*>(stat_buf);
  file_facts f;
  f.kind = kind_of(st.st_mode);
  f.size = static_cast<std::uint64_t>(st.st_size);
  f.links = static_cast<std::uint64_t>(st.st_nlink);
  f.device = static_cast<std::uint64_t>(st.st_dev);
  f.inode = static_cast<std::uint64_t>(st.st_ino);
  posix::copy_times(&st, f);
  return f;
}

namespace {

int fd_of(native_handle h) { return static_cast<int>(h); }

}  // namespace

std::error_code facts_of(const std::filesystem::path& path, file_facts& out, bool follow_links) {
  struct stat st {};
  int rc = follow_links ? ::stat(path.c_str(), &st) : ::lstat(path.c_str(), &st);
  if (rc != 0) return posix::last_error();
  out = posix::facts_from_stat(&st);
  return {};
}

file_handle file_handle::open(const std::filesystem::path& path, access how, unsigned create_mode, std::error_code& ec) {
  ec.clear();
  int flags = O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
  if (how == access::read) flags |= O_RDONLY;
  if (how == access::append) flags |= O_WRONLY | O_CREAT | O_APPEND;
  if (how == access::write) flags |= O_WRONLY | O_CREAT | O_TRUNC;
  int fd = ::open(path.c_str(), flags, static_cast<mode_t>(create_mode));
  if (fd < 0) {
    ec = posix::last_error();
    return {};
  }
  return file_handle(fd);
}

std::error_code file_handle::facts(file_facts& out) const {
  struct stat st {};
  if (::fstat(fd_of(h_), &st) != 0) return posix::last_error();
  out = posix::facts_from_stat(&st);
  return {};
}

std::size_t file_handle::write(std::string_view data, std::error_code& ec) noexcept {
  ec.clear();
  std::size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd_of(h_), data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ec = n < 0 ? posix::last_error() : std::make_error_code(std::errc::io_error);
      break;
    }
    done += static_cast<std::size_t>(n);
  }
  return done;
}

std::ptrdiff_t file_handle::read_some(char* buf, std::size_t size) noexcept {
  for (;;) {
    ssize_t n = ::read(fd_of(h_), buf, size);
    if (n >= 0 || errno != EINTR) return n;
  }
}

std::ptrdiff_t file_handle::read_at(std::uint64_t offset, char* buf, std::size_t size) noexcept {
  for (;;) {
    ssize_t n = ::pread(fd_of(h_), buf, size, static_cast<off_t>(offset));
    if (n >= 0 || errno != EINTR) return n;
  }
}

std::error_code file_handle::flush_to_disk() noexcept { return posix::flush_to_disk(fd_of(h_)); }

bool file_handle::try_lock_exclusive() noexcept { return ::flock(fd_of(h_), LOCK_EX | LOCK_NB) == 0; }

std::error_code file_handle::set_mode(unsigned mode) noexcept {
  if (::fchmod(fd_of(h_), static_cast<mode_t>(mode)) != 0) return posix::last_error();
  return {};
}

}  // namespace opentabs::platform
