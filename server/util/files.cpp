#include "util/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "util/random.hpp"

namespace opentabs {
namespace {

error io_error(const fs::path& path, const char* what) {
  return make_error(errc::io, std::string(what) + " " + path.string() + ": " + std::strerror(errno));
}

}  // namespace

bool write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

result<std::string> read_file(const fs::path& path, std::size_t max_bytes) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return make_error(errc::not_found, path.string() + " does not exist");
    return io_error(path, "cannot open");
  }
  std::string out;
  char buf[65536];
  while (true) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      auto e = io_error(path, "cannot read");
      ::close(fd);
      return e;
    }
    if (n == 0) break;
    if (out.size() + static_cast<std::size_t>(n) > max_bytes) {
      ::close(fd);
      return make_error(errc::too_large, path.string() + " is larger than " + std::to_string(max_bytes) + " bytes");
    }
    out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return out;
}

namespace {

// Temp file + rename: `path` holds the old content or the new, never a torn mix.  `durable`
// also fsyncs the file before the rename and the directory after it.
status replace_file(const fs::path& path, std::string_view content, unsigned mode, bool durable) {
  fs::path tmp = path;
  tmp += ".tmp." + std::to_string(::getpid()) + "." + random_hex(4);
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd < 0) return io_error(tmp, "cannot create");
  bool good = write_all(fd, content) && ::fchmod(fd, mode) == 0 && (!durable || ::fsync(fd) == 0);
  auto write_err = good ? error{} : io_error(tmp, "cannot write");
  ::close(fd);
  if (!good) {
    ::unlink(tmp.c_str());
    return write_err;
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    auto e = io_error(path, "cannot replace");
    ::unlink(tmp.c_str());
    return e;
  }
  if (!durable) return ok();
  // Make the rename itself durable.
  auto dir = path.parent_path().empty() ? fs::path(".") : path.parent_path();
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return ok();
}

}  // namespace

status write_file_atomic(const fs::path& path, std::string_view content, unsigned mode) {
  return replace_file(path, content, mode, true);
}

status write_file_unsynced(const fs::path& path, std::string_view content, unsigned mode) {
  return replace_file(path, content, mode, false);
}

status sync_filesystem(const fs::path& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return io_error(dir, "cannot open");
  int rc = ::syncfs(fd);
  auto e = rc == 0 ? error{} : io_error(dir, "cannot sync");
  ::close(fd);
  if (rc != 0) return e;
  return ok();
}

status append_file(const fs::path& path, std::string_view content, unsigned mode) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, mode);
  if (fd < 0) return io_error(path, "cannot open");
  bool good = write_all(fd, content);
  auto e = good ? error{} : io_error(path, "cannot append to");
  ::close(fd);
  if (!good) return e;
  return ok();
}

status ensure_dir(const fs::path& path, unsigned mode) {
  std::error_code ec;
  fs::create_directories(path, ec);
  if (ec) return make_error(errc::io, "cannot create directory " + path.string() + ": " + ec.message());
  if (::chmod(path.c_str(), mode) != 0) return io_error(path, "cannot chmod");
  return ok();
}

}  // namespace opentabs
