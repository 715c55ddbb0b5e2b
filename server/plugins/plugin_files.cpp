#include "plugins/plugin_files.hpp"
#include "plugins/plugin_failure.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace opentabs::plugins {

namespace fs = std::filesystem;

namespace {

bool inside(const fs::path& child, const fs::path& root) {
  auto c = child.begin();
  for (auto r = root.begin(); r != root.end(); ++r, ++c)
    if (c == child.end() || *c != *r) return false;
  return true;
}

error unsafe(std::string_view rel, const std::string& why) {
  return make_error(plugin_failure::unsafe_file, std::string(rel) + " " + why);
}

const char* kind_of(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISDIR(mode)) return "a directory";
  return "not a regular file";
}

}  // namespace

result<std::string> read_plugin_file(const fs::path& root, std::string_view rel, std::size_t max_bytes) {
  std::error_code ec;
  fs::path real = fs::canonical(root / rel, ec);
  if (ec) {
    if (ec == std::errc::no_such_file_or_directory) return make_error(errc::not_found, std::string(rel) + " does not exist");
    return make_error(errc::io, std::string(rel) + " cannot be resolved: " + ec.message());
  }
  if (!inside(real, root)) return unsafe(rel, "is a symbolic link that leads out of the plugin folder; it was not read");
  struct stat st {};
  if (::lstat(real.c_str(), &st) != 0) return make_error(errc::io, std::string(rel) + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    return unsafe(rel, std::string("is ") + kind_of(st.st_mode) + "; a plugin may contain only regular files");
  int fd = ::open(real.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return make_error(errc::io, std::string(rel) + " cannot be opened: " + std::strerror(errno));
  // The file may have been replaced between the check and the open.
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return unsafe(rel, "changed into something that is not a regular file while it was opened");
  }
  if (static_cast<std::uintmax_t>(st.st_size) > max_bytes) {
    ::close(fd);
    return make_error(errc::too_large, std::string(rel) + " is larger than " + std::to_string(max_bytes) + " bytes");
  }
  std::string out;
  out.resize(static_cast<std::size_t>(st.st_size));
  std::size_t got = 0;
  // A file that grows while it is read is cut at the size fstat saw.
  while (got < out.size()) {
    ssize_t n = ::read(fd, out.data() + got, out.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int e = errno;
      ::close(fd);
      return make_error(errc::io, std::string(rel) + " cannot be read: " + std::strerror(e));
    }
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  out.resize(got);
  return out;
}

}  // namespace opentabs::plugins
