#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "platform/directory_handle.hpp"
#include "platform/posix_io.hpp"

namespace opentabs::platform {

namespace {

int fd_of(native_handle h) { return static_cast<int>(h); }

}  // namespace

directory_handle directory_handle::open(const std::filesystem::path& path, std::error_code& ec) {
  ec.clear();
  directory_handle d;
  int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    ec = posix::last_error();
    return d;
  }
  d.h_ = fd;
  d.path_ = path;
  return d;
}

directory_handle directory_handle::open_subdirectory(const std::string& name, unsigned mode, std::error_code& ec) const {
  ec.clear();
  directory_handle d;
  if (::mkdirat(fd_of(h_), name.c_str(), static_cast<mode_t>(mode)) != 0 && errno != EEXIST) {
    ec = posix::last_error();
    return d;
  }
  int fd = ::openat(fd_of(h_), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    ec = posix::last_error();
    file_facts f;
    if (!entry_facts(name, f) && f.kind == file_kind::symlink) ec = std::make_error_code(std::errc::too_many_symbolic_link_levels);
    return d;
  }
  d.h_ = fd;
  d.path_ = path_ / name;
  return d;
}

std::error_code directory_handle::entry_facts(const std::string& name, file_facts& out) const {
  struct stat st {};
  if (::fstatat(fd_of(h_), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return posix::last_error();
  out = posix::facts_from_stat(&st);
  return {};
}

file_handle directory_handle::create_new_file(const std::string& name, unsigned mode, std::error_code& ec) const {
  ec.clear();
  int fd = ::openat(fd_of(h_), name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, static_cast<mode_t>(mode));
  if (fd < 0) {
    ec = posix::last_error();
    return {};
  }
  return file_handle::adopt(fd);
}

std::error_code directory_handle::remove(const std::string& name) const {
  if (::unlinkat(fd_of(h_), name.c_str(), 0) != 0) return posix::last_error();
  return {};
}

std::error_code directory_handle::flush() const { return posix::flush_to_disk(fd_of(h_)); }

std::error_code directory_handle::rename(const std::string& from, const std::string& to, bool replace) const {
  if (replace) {
    if (::renameat(fd_of(h_), from.c_str(), fd_of(h_), to.c_str()) != 0) return posix::last_error();
    return {};
  }
  return posix::rename_no_replace(fd_of(h_), from.c_str(), to.c_str());
}

}  // namespace opentabs::platform
