// The one lock every writer of config.json holds (server, `opentabs config set`, config
// reset): an advisory flock(2) on config.json.lock next to it.  Holding it across "read the
// file as it is now → apply one edit → atomic write" makes concurrent edits from different
// processes apply one after another instead of overwriting each other.  The lock file is
// never deleted (deleting it would let two writers lock two different files).  The kernel
// drops the lock when its holder dies, so a SIGKILLed writer never leaves it stuck.
#pragma once

#include <chrono>
#include <filesystem>

#include "util/result.hpp"

namespace opentabs::config {

namespace fs = std::filesystem;

class config_lock {
 public:
  // The lock file for `config_json` ("<config_json>.lock").
  static fs::path lock_path_for(const fs::path& config_json);

  // Waits up to `patience` for the exclusive lock.  Errors: "io" (cannot open the lock
  // file), "locked" (another process held it the whole time; the message names the file).
  static result<config_lock> acquire(const fs::path& config_json,
                                     std::chrono::milliseconds patience = std::chrono::seconds(10));

  config_lock(config_lock&& other) noexcept;
  config_lock& operator=(config_lock&& other) noexcept;
  config_lock(const config_lock&) = delete;
  config_lock& operator=(const config_lock&) = delete;
  ~config_lock();

 private:
  explicit config_lock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace opentabs::config
