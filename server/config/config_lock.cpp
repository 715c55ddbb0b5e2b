#include "config/config_lock.hpp"

#include <optional>
#include <string>
#include <thread>

#include "config/config_failure.hpp"
#include "platform/file_access.hpp"
#include "platform/file_handle.hpp"
#include "platform/process_identity.hpp"
#include "util/files.hpp"
#include "util/strings.hpp"

namespace opentabs::config {

namespace {

constexpr const char* kPidFile = "pid.txt";

// The pid a holder wrote, or nullopt (none yet, or not a pid).  Anyone who can write the
// config folder can plant a FIFO or a device as pid.txt: it is opened without blocking and
// read only when it is a regular file, so a planted one reads as "no pid" (a holder that
// becomes stale after unnamed_grace) instead of blocking every writer.
std::optional<long> holder_pid(const fs::path& dir) {
  std::error_code ec;
  auto file = platform::file_handle::open(dir / kPidFile, platform::file_handle::access::read, 0, ec);
  if (ec) return std::nullopt;
  platform::file_facts facts;
  if (file.facts(facts) || facts.kind != platform::file_kind::regular) return std::nullopt;
  char buf[64];
  const auto n = file.read_some(buf, sizeof buf);
  if (n <= 0) return std::nullopt;
  auto t = trim(std::string_view(buf, static_cast<std::size_t>(n)));
  if (t.empty() || t.size() > 10) return std::nullopt;
  long pid = 0;
  for (char c : t) {
    if (c < '0' || c > '9') return std::nullopt;
    pid = pid * 10 + (c - '0');
  }
  if (pid <= 0) return std::nullopt;
  return pid;
}

bool older_than(const platform::file_facts& f, std::chrono::system_clock::duration age) {
  const auto made = std::chrono::system_clock::time_point(
      std::chrono::duration_cast<std::chrono::system_clock::duration>(std::chrono::nanoseconds(f.modified_ns)));
  return std::chrono::system_clock::now() - made > age;
}

// An older opentabs' flock file: removable when no process holds its flock.
bool remove_unheld_legacy_file(const fs::path& path) {
  std::error_code ec;
  auto file = platform::file_handle::open(path, platform::file_handle::access::read, 0, ec);
  if (ec) return ec == std::errc::no_such_file_or_directory;
  if (!file.try_lock_exclusive()) return false;
  fs::remove(path, ec);
  return !ec;
}

// Takes a stale lock directory away by renaming it first, so two writers that both judged it
// stale cannot remove the lock one of them has made since: only the rename's winner removes it,
// and a lock that turns out to have a live holder after all is put back.
bool remove_stale_lock(const fs::path& dir, std::optional<long> stale_pid) {
  fs::path aside = dir;
  aside += ".stale-" + std::to_string(platform::current_process_id());
  std::error_code ec;
  fs::rename(dir, aside, ec);
  if (ec) return ec == std::errc::no_such_file_or_directory;
  const auto now_pid = holder_pid(aside);
  if (now_pid && now_pid != stale_pid && platform::process_alive(*now_pid)) {
    fs::rename(aside, dir, ec);
    return false;
  }
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
    bool created = false;
    if (auto ec = platform::make_directory(dir, 0700, created))
      return make_error(errc::io, "cannot make the config lock " + dir.string() + ": " + ec.message());
    if (created) {
      const std::string pid = std::to_string(platform::current_process_id());
      if (auto w = write_file_unsynced(dir / kPidFile, pid, 0600); !w) {
        std::error_code ignored;
        fs::remove(dir, ignored);
        return make_error(errc::io, "cannot write " + (dir / kPidFile).string() + ": " + w.err().message);
      }
      return config_lock(dir);
    }
    platform::file_facts st;
    if (platform::facts_of(dir, st, false)) continue;  // released between the mkdir and this look
    if (st.kind == platform::file_kind::regular) {
      if (remove_unheld_legacy_file(dir)) continue;
      return make_error(config_failure::locked, "an older opentabs is writing config.json (it holds the lock file " +
                                                    dir.string() + "); config.json was not changed");
    }
    if (st.kind != platform::file_kind::directory)
      return make_error(errc::io, dir.string() + " is neither a directory nor a file; delete it so config.json can be written");
    const auto pid = holder_pid(dir);
    const bool dead = !pid || !platform::process_alive(*pid);
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
  if (holder_pid(dir_) == platform::current_process_id()) {
    std::error_code ignored;
    fs::remove(dir_ / kPidFile, ignored);
    fs::remove(dir_, ignored);
  }
  dir_.clear();
}

}  // namespace opentabs::config
