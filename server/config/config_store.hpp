// config.json on disk: load (creating the default file, migrating old versions with a
// config.json.backup) and section-preserving updates (read the file as it is now → apply
// one edit from config_edits.hpp → atomic write, mode 0600).  Because each update re-reads
// the file, hand edits and other writers' changes to other sections survive.
//
// Not thread-safe: the server uses one instance from its single io_context thread, which
// serialises its writes; other processes (CLI, plugin build) are separated by the atomic
// rename.  Blocking file I/O on small files only.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "json/json.hpp"
#include "util/result.hpp"

namespace opentabs::config {

namespace fs = std::filesystem;

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
  using edit_fn = std::function<result<bool>(json::object&)>;
  result<loaded_config> update(const edit_fn& edit);

 private:
  // The current object for editing or loading: migrated (backup + persist) when old.
  struct current {
    json::object root;
    std::vector<std::string> warnings;
    bool missing = false;
    std::optional<int> migrated_from;
  };
  result<current> read_current();

  fs::path path_;
  fs::path home_;
};

}  // namespace opentabs::config
