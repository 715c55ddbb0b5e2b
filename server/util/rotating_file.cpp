#include "util/rotating_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace opentabs {

rotating_file::rotating_file(std::filesystem::path file, std::uint64_t max_bytes)
    : file_(std::move(file)), max_bytes_(std::max(max_bytes, kMinMaxBytes)) {
  rotated_ = file_;
  rotated_ += ".1";
}

rotating_file::~rotating_file() {
  if (fd_ >= 0) ::close(fd_);
}

status rotating_file::open() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = ::open(file_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
  if (fd_ < 0) return make_error(errc::io, "cannot open " + file_.string() + ": " + std::strerror(errno));
  struct stat st {};
  size_ = ::fstat(fd_, &st) == 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
  return ok();
}

void rotating_file::append(std::string_view bytes) {
  while (!bytes.empty() && fd_ >= 0) {
    ssize_t w = ::write(fd_, bytes.data(), bytes.size());
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    size_ += static_cast<std::uint64_t>(w);
    bytes.remove_prefix(static_cast<std::size_t>(w));
  }
}

void rotating_file::rotate() {
  // rename() replaces server.log.1 atomically; on failure keep appending to the old file
  // rather than losing lines.
  if (std::rename(file_.c_str(), rotated_.c_str()) != 0) return;
  int fresh = ::open(file_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
  if (fresh < 0) return;
  if (fd_ >= 0) ::close(fd_);
  fd_ = fresh;
  size_ = 0;
}

void rotating_file::write(std::string_view bytes) {
  while (!bytes.empty() && fd_ >= 0) {
    std::uint64_t room = size_ < max_bytes_ ? max_bytes_ - size_ : 0;
    if (bytes.size() <= room) {
      append(bytes);
      return;
    }
    // The last newline that still fits ends this file.
    auto fits = bytes.substr(0, static_cast<std::size_t>(room));
    auto nl = fits.rfind('\n');
    if (nl != std::string_view::npos) {
      append(bytes.substr(0, nl + 1));
      bytes.remove_prefix(nl + 1);
    } else if (size_ == 0) {
      // One line longer than the whole file: cut it.
      append(fits);
      bytes.remove_prefix(fits.size());
    }
    std::uint64_t before = size_;
    rotate();
    if (size_ == before && size_ != 0) {  // rotation failed: do not loop, just append
      append(bytes);
      return;
    }
  }
}

}  // namespace opentabs
