#include "config/config_lock.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <thread>

#include "config/config_failure.hpp"
#include "util/files.hpp"
#include "util/process_alive.hpp"
#include "util/strings.hpp"

namespace opentabs::config {

namespace {

constexpr const char* kPidFile = "pid.txt";

std::optional<long> holder_pid(const fs::path& dir) {
  auto text = read_file(dir / kPidFile, 64);
  if (!text) return std::nullopt;
  auto t = trim(*text);
  if (t.empty() || t.size() > 10) return std::nullopt;
  long pid = 0;
  for (char c : t) {
    if (c < '0' || c > '9') return std::nullopt;
    pid = pid * 10 + (c - '0');
  }
  if (pid <= 0) return std::nullopt;
  return pid;
}

bool older_than(const struct stat& st, std::chrono::system_clock::duration age) {
  const auto made = std::chrono::system_clock::time_point(std::chrono::seconds(st.st_mtim.tv_sec)) +
                    std::chrono::duration_cast<std::chrono::system_clock::duration>(std::chrono::nanoseconds(st.st_mtim.tv_nsec));
  return std::chrono::system_clock::now() - made > age;
}

// An older opentabs' flock file: removable when no process holds its flock.
bool remove_unheld_legacy_file(const fs::path& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT;
  bool removed = false;
  if (::flock(fd, LOCK_EX | LOCK_NB) == 0) removed = ::unlink(path.c_str()) == 0 || errno == ENOENT;
  ::close(fd);
  return removed;
}

// Takes a stale lock directory away by renaming it first, so two writers that both judged it
// stale cannot remove the lock one of them has made since: only the rename's winner removes it,
// and a lock that turns out to have a live holder after all is put back.
bool remove_stale_lock(const fs::path& dir, std::optional<long> stale_pid) {
  fs::path aside = dir;
  aside += ".stale-" + std::to_string(::getpid());
  if (::rename(dir.c_str(), aside.c_str()) != 0) return errno == ENOENT;
  const auto now_pid = holder_pid(aside);
  if (now_pid && now_pid != stale_pid && process_alive(*now_pid)) {
    ::rename(aside.c_str(), dir.c_str());
    return false;
  }
  std::error_code ec;
  fs::remove_all(aside, ec);
  return true;
}

}  // namespace

fs::path config_lock::lock_path_for(const fs::path& config_json) {
  fs::path p = config_json;
  p += ".lock";
  return p;
}

result<config_lock> config_lock::try_acquire(const fs::path& config_json) {
  const fs::path dir = lock_path_for(config_json);
  // Two rounds: the second follows the removal of a stale directory or a legacy file.
  for (int round = 0; round < 2; ++round) {
    if (::mkdir(dir.c_str(), 0700) == 0) {
      const std::string pid = std::to_string(::getpid());
      if (auto w = write_file_unsynced(dir / kPidFile, pid, 0600); !w) {
        ::rmdir(dir.c_str());
        return make_error(errc::io, "cannot write " + (dir / kPidFile).string() + ": " + w.err().message);
      }
      return config_lock(dir);
    }
    if (errno != EEXIST) return make_error(errc::io, "cannot make the config lock " + dir.string() + ": " + std::strerror(errno));
    struct stat st{};
    if (::lstat(dir.c_str(), &st) != 0) continue;  // released between mkdir and lstat
    if (S_ISREG(st.st_mode)) {
      if (remove_unheld_legacy_file(dir)) continue;
      return make_error(config_failure::locked, "an older opentabs is writing config.json (it holds the lock file " +
                                                    dir.string() + "); config.json was not changed");
    }
    if (!S_ISDIR(st.st_mode))
      return make_error(errc::io, dir.string() + " is neither a directory nor a file; delete it so config.json can be written");
    const auto pid = holder_pid(dir);
    const bool dead = !pid || !process_alive(*pid);
    // A holder that named itself and has died (a SIGKILLed server, a crashed build) will never
    // release: its lock is stale at once. Without a pid the holder may be between its mkdir and
    // its pid.txt, which every writer (ours and the original's tools) writes right after the
    // mkdir; a directory still unnamed after unnamed_grace was left by a writer killed in
    // between, and is stale too.
    if ((pid && dead) || (!pid && older_than(st, config_lock::unnamed_grace))) {
      if (remove_stale_lock(dir, pid)) continue;
    }
    std::string why = "config.json is locked by ";
    why += pid ? "process " + std::to_string(*pid) : std::string("a process that has not written its pid yet");
    why += " (" + dir.string() + ")";
    if (pid && dead)
      why += ", which is no longer running, and the lock could not be taken over; delete " + dir.string() +
             " if no opentabs or plugin build is running";
    return make_error(config_failure::locked, why + "; config.json was not changed");
  }
  return make_error(config_failure::locked,
                    "config.json is locked (" + dir.string() + " keeps coming back); config.json was not changed");
}

result<config_lock> config_lock::acquire(const fs::path& config_json, std::chrono::milliseconds patience) {
  const auto deadline = std::chrono::steady_clock::now() + patience;
  for (;;) {
    auto l = try_acquire(config_json);
    if (l || !l.err().is(config_failure::locked) || std::chrono::steady_clock::now() + retry_interval > deadline) return l;
    std::this_thread::sleep_for(retry_interval);
  }
}

config_lock::config_lock(config_lock&& other) noexcept : dir_(std::move(other.dir_)) { other.dir_.clear(); }

config_lock& config_lock::operator=(config_lock&& other) noexcept {
  if (this != &other) {
    release();
    dir_ = std::move(other.dir_);
    other.dir_.clear();
  }
  return *this;
}

config_lock::~config_lock() { release(); }

void config_lock::release() noexcept {
  if (dir_.empty()) return;
  // A directory someone judged stale and replaced is theirs now: leave it.
  if (holder_pid(dir_) == static_cast<long>(::getpid())) {
    ::unlink((dir_ / kPidFile).c_str());
    ::rmdir(dir_.c_str());
  }
  dir_.clear();
}

}  // namespace opentabs::config
