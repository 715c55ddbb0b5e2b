// The one lock every writer of config.json holds — this server, `opentabs config`, and the
// original OpenTabs CLI and plugin tools (`opentabs-plugin build` registers a plugin under
// it) — so all of them must speak the original's protocol: a lock DIRECTORY
// "config.json.lock" made with mkdir(2) (atomic: EEXIST means someone holds it), holding
// "pid.txt" with the holder's pid, released by removing the directory.  A directory older
// than five minutes whose pid is no longer running is stale and may be removed by anyone;
// opentabs also takes over at once a directory whose pid.txt names a dead process, since
// that holder can never release it, and one still without pid.txt after unnamed_grace.
// Holding it across "read the file as it is now → apply one edit → atomic write" makes
// concurrent edits from different processes apply one after another instead of
// overwriting each other.
//
// Older opentabs versions kept a permanent empty FILE of that name for flock(2); one that
// nobody holds is removed so the directory can be made.
#pragma once

#include <chrono>
#include <filesystem>

#include "util/result.hpp"

namespace opentabs::config {

namespace fs = std::filesystem;

class config_lock {
 public:
  // Every writer polls a held lock at this interval, as the original's tools do, so none of
  // them starves the others (when a lock counts as stale: see try_acquire).
  static constexpr std::chrono::milliseconds retry_interval{50};
  // A lock directory without pid.txt older than this was left by a writer killed between its
  // mkdir and its pid.txt.
  static constexpr std::chrono::seconds unnamed_grace{2};

  // The lock directory for `config_json` ("<config_json>.lock").
  static fs::path lock_path_for(const fs::path& config_json);

  // One attempt, never waits.  Errors: "locked" (a live holder, or one not yet stale; the
  // message names the holder's pid and what to do), "io" (cannot make the directory).
  static result<config_lock> try_acquire(const fs::path& config_json);

  // Attempts every retry_interval for up to `patience` (blocks the calling thread: for the
  // CLI and start-up, never for the server's io thread).  Errors as try_acquire.
  static result<config_lock> acquire(const fs::path& config_json,
                                     std::chrono::milliseconds patience = std::chrono::seconds(10));

  config_lock(config_lock&& other) noexcept;
  config_lock& operator=(config_lock&& other) noexcept;
  config_lock(const config_lock&) = delete;
  config_lock& operator=(const config_lock&) = delete;
  ~config_lock();  // removes pid.txt and the directory, if they are still this process's

 private:
  explicit config_lock(fs::path dir) : dir_(std::move(dir)) {}
  void release() noexcept;
  fs::path dir_;  // empty once moved from or released
};

}  // namespace opentabs::config
