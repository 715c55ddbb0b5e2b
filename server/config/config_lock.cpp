#include "config/config_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

namespace opentabs::config {

fs::path config_lock::lock_path_for(const fs::path& config_json) {
  fs::path p = config_json;
  p += ".lock";
  return p;
}

result<config_lock> config_lock::acquire(const fs::path& config_json, std::chrono::milliseconds patience) {
  const fs::path path = lock_path_for(config_json);
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0)
    return make_error("io", "cannot open the config lock " + path.string() + ": " + std::strerror(errno));
  // Non-blocking tries with short sleeps: a writer holds the lock for milliseconds, and a
  // bounded wait turns a stuck holder into an error instead of a hang.
  const auto deadline = std::chrono::steady_clock::now() + patience;
  auto pause = std::chrono::microseconds(200);
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    if (errno != EWOULDBLOCK || std::chrono::steady_clock::now() >= deadline) {
      const bool busy = errno == EWOULDBLOCK;
      const std::string why = std::strerror(errno);
      ::close(fd);
      if (busy)
        return make_error("locked", "another process has held " + path.string() + " for over " +
                                        std::to_string(patience.count()) + " ms; config.json was not changed");
      return make_error("io", "cannot lock " + path.string() + ": " + why);
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(5000));
  }
  return config_lock(fd);
}

config_lock::config_lock(config_lock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

config_lock& config_lock::operator=(config_lock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

config_lock::~config_lock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor releases the flock
}

}  // namespace opentabs::config
