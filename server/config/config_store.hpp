// config.json on disk: load (creating the default file, migrating old versions with a
// config.json.backup) and section-preserving updates (read the file as it is now → apply
// one edit from config_edits.hpp → atomic write, mode 0600).  Because each update re-reads
// the file, hand edits and other writers' changes to other sections survive.
//
// Every writer, in every process, holds config_lock (the lock directory config.json.lock,
// shared with the original OpenTabs tools) from the re-read to the rename, so concurrent
// edits apply one after another and none is lost.  The write itself stays atomic (temp
// file, fsync, rename), so a SIGKILL mid-write leaves the old or the new file.
//
// A process that must never wait for the lock (the server's io thread) turns on
// defer_when_locked: an update that finds the lock held is applied to a fresh read of the
// file in memory and kept as a pending edit; load() and every later update re-apply the
// pending edits on top of what is on disk, and write_pending() (called by the owner on a
// timer) writes them once the lock is free.  So the caller sees its change at once and
// other writers' changes are never overwritten.  Not thread-safe: the server uses one
// instance from its single io_context thread.  Blocking file I/O on small files only.
#pragma once

#include <chrono>
#include <filesystem>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "json/json.hpp"
#include "util/result.hpp"

namespace opentabs::config {

namespace fs = std::filesystem;

// Identifies one version of a file on disk: every atomic write creates a new inode, and the
// times and size catch in-place hand edits.
struct file_stamp {
  std::int64_t dev = -1;
  std::int64_t ino = -1;
  std::int64_t mtime_ns = -1;
  std::int64_t ctime_ns = -1;
  std::int64_t size = -1;
  bool operator==(const file_stamp&) const = default;
};
// The stamp of `p` now; all -1 when it does not exist.
file_stamp stamp_of(const fs::path& p);

struct loaded_config {
  config_file cfg;
  json::object raw;                   // the object as stored (after migrations)
  std::vector<std::string> warnings;  // unknown keys, dropped values, migration notes
  bool created = false;               // config.json did not exist and was created
  std::optional<int> migrated_from;   // set when a migration ran (and was persisted)
};

class config_store {
 public:
  // `home` is where "~/" points (migration 2→3 and path display).
  config_store(fs::path config_json, fs::path home);

  const fs::path& path() const noexcept { return path_; }
  fs::path backup_path() const;

  // Reads config.json.  Missing → writes the default file (creating the directory, 0700,
  // if needed) and returns it (created = true;
  // if even that write fails the defaults are returned with a warning).  Not JSON, too big
  // or not an object → error naming the file and line/column: keep the last good config.
  // Old versions are migrated: the original bytes go to config.json.backup first, then the
  // migrated file is written atomically.
  result<loaded_config> load();

  // One section-preserving edit.  The edit returns whether it changed anything (or an
  // error, which aborts without writing).  A missing file starts from the defaults; a
  // corrupt file is an error and is left alone, so a half-written hand edit is never
  // overwritten.  Returns the config as written.
  // With defer_when_locked, the edit may be kept and run again later: it must capture by
  // value.
  using edit_fn = std::function<result<bool>(json::object&)>;
  result<loaded_config> update(const edit_fn& edit);

  // How long update(), remove() and load() wait for the lock (blocking); 0 = one attempt.
  void set_lock_patience(std::chrono::milliseconds p) { patience_ = p; }
  // Keep edits that find the lock held instead of failing (see the file comment);
  // `on_deferred` is called each time one is kept, so the owner can start writing them.
  void defer_when_locked(std::function<void()> on_deferred) { on_deferred_ = std::move(on_deferred); }
  bool has_pending() const noexcept { return !pending_.empty(); }
  // Counts of edits kept so far and of those no longer kept because they were written (or
  // dropped, as too large to ever fit): an edit kept as the n-th is on disk once
  // written_through() >= n.  A caller that must not claim a change saved before it is
  // durable takes kept_count() after its update and waits for written_through().
  std::uint64_t kept_count() const noexcept { return kept_count_; }
  std::uint64_t written_through() const noexcept { return written_through_; }
  std::uint64_t dropped_through() const noexcept { return dropped_through_; }
  // One attempt to write the pending edits: the config as written, or "locked" (try again
  // later) or another error (the edits stay pending).
  result<loaded_config> write_pending();

  // Deletes config.json (under the lock); a missing file is not an error.
  status remove();

  // Deletes the temp files a writer killed mid-write left ("config.json.tmp.*",
  // "config.json.backup.tmp.*"), under the lock so no live writer's file is touched.
  // Returns how many were removed.
  result<std::size_t> remove_leftover_temp_files();

  // The stamp of config.json as this instance last read or wrote it (taken under the
  // lock): a watcher comparing against it sees every later change by anyone else.
  const file_stamp& last_stamp() const noexcept { return last_stamp_; }

 private:
  // The current object for editing or loading: migrated (backup + persist) when old.
  struct current {
    json::object root;
    std::vector<std::string> warnings;
    bool missing = false;
    std::optional<int> migrated_from;
  };
  // `may_write`: the lock is held, so a migration may be persisted.
  result<current> read_current(bool may_write);
  result<loaded_config> write_locked(current cur, const edit_fn* edit);
  void apply_pending(json::object& root, std::vector<std::string>& warnings) const;

  fs::path path_;
  fs::path home_;
  file_stamp last_stamp_;
  std::chrono::milliseconds patience_{10'000};
  std::function<void()> on_deferred_;
  std::vector<edit_fn> pending_;
  std::uint64_t kept_count_ = 0;
  std::uint64_t written_through_ = 0;
  std::uint64_t dropped_through_ = 0;
};

}  // namespace opentabs::config
