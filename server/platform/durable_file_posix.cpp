// replace_file, append_file and read_file on Linux and macOS.
#include "platform/durable_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "platform/posix_io.hpp"
#include "platform/temp_name.hpp"

namespace opentabs::platform {

namespace {

// Makes the rename itself durable: the directory entry is flushed too.
void flush_directory_of(const std::filesystem::path& path) {
  auto dir = path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
  posix::unique_fd dfd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dfd.get() >= 0) (void)posix::flush_to_disk(dfd.get());
}

}  // namespace

std::error_code replace_file(const std::filesystem::path& path, std::string_view content, unsigned mode,
                             durability when) {
  const auto tmp = temp_name_beside(path);
  posix::unique_fd fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, static_cast<mode_t>(mode)));
  if (fd.get() < 0) return posix::last_error();
  std::error_code ec = posix::write_all(fd.get(), content);
  if (!ec && ::fchmod(fd.get(), static_cast<mode_t>(mode)) != 0) ec = posix::last_error();
  if (!ec && when == durability::on_return) ec = posix::flush_to_disk(fd.get());
  fd.reset();
  if (!ec && ::rename(tmp.c_str(), path.c_str()) != 0) ec = posix::last_error();
  if (ec) {
    ::unlink(tmp.c_str());
    return ec;
  }
  if (when == durability::on_return) flush_directory_of(path);
  return {};
}

std::error_code append_file(const std::filesystem::path& path, std::string_view content, unsigned mode) {
  posix::unique_fd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, static_cast<mode_t>(mode)));
  if (fd.get() < 0) return posix::last_error();
  return posix::write_all(fd.get(), content);
}

std::error_code read_file(const std::filesystem::path& path, std::size_t max_bytes, std::string& out) {
  out.clear();
  posix::unique_fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return posix::last_error();
  char buf[65536];
  while (true) {
    ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      return posix::last_error();
    }
    if (n == 0) return {};
    if (out.size() + static_cast<std::size_t>(n) > max_bytes) {
      out.clear();
      return std::make_error_code(std::errc::file_too_large);
    }
    out.append(buf, static_cast<std::size_t>(n));
  }
}

}  // namespace opentabs::platform
