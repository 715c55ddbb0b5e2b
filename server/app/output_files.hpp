// Where tools may write files a caller names (browser_screenshot_tab and browser_export_har
// `filePath`), and read the files browser_upload_file sends to a page (`readable`): only under the output folder (default <config dir>/output, `outputDirectory`
// in config.json) or an additionalAllowedDirectories entry; never through a symbolic link
// below that folder or at the target; never over an existing file unless the call says
// `overwrite: true`; never into the config folder's own files (config.json, auth.json,
// audit.log, extension/, ...) even when the config folder is listed as allowed.  A
// relative path is taken relative to the output folder.  A tool argument can be chosen by
// a page's content (prompt injection), so each rule holds on its own.
//
// Writes are atomic (temp file in the same directory, fsync, rename) with mode 0600, and the
// walk from the allowed folder down to the file goes through directory descriptors opened
// with O_NOFOLLOW, so a symlink swapped in after a check is not followed either.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.hpp"
#include "util/result.hpp"

namespace opentabs::app {

namespace fs = std::filesystem;

// The folders the policy works with, all absolute.
struct output_locations {
  fs::path config_dir;                   // its own files are never written
  fs::path output_dir;                   // relative paths land here; created (0700) on first use
  std::vector<fs::path> additional_dirs; // additionalAllowedDirectories, expanded
};

// `outputDirectory` and `additionalAllowedDirectories` from config.json, expanded: "~" and
// "~/…" against `home`, other relative entries against the config folder.  Without
// `outputDirectory` the output folder is <config dir>/output.
output_locations output_locations_from_config(const config::config_file& cfg, const fs::path& config_dir,
                                              const fs::path& home);

class output_file_policy {
 public:
  explicit output_file_policy(output_locations where);

  const output_locations& locations() const noexcept { return where_; }

  // The absolute (lexically normal) path `requested` names, or an error naming the path and
  // the rule it breaks (errc::invalid_params).  Looks only at the text, not the disk.
  result<fs::path> resolve(std::string_view requested) const;

  // Read side (browser_upload_file `paths`): the real path of an existing regular file that
  // `requested` names under the same folder rules: relative paths in the output folder,
  // absolute ones inside an allowed folder, no '..', no symbolic link below the allowed
  // folder or at the file, and never a file of the config folder (auth.json, config.json,
  // logs, extension/) outside a private output folder there.  Errors have code
  // errc::invalid_params and name the path.
  result<fs::path> readable(std::string_view requested) const;

  // Writes `content` to `requested` under every rule above and returns the path written.
  // Errors (errc::invalid_params for a rule, errc::io for the file system) name the path.
  result<fs::path> write(std::string_view requested, std::string_view content, bool overwrite) const;

 private:
  struct target {
    fs::path root;                      // the allowed folder it falls in (lexical)
    std::vector<std::string> subdirs;   // folders between root and the file
    std::string name;                   // the file name
    fs::path full;                      // root / subdirs / name
  };
  result<target> locate(std::string_view requested) const;
  status check_not_config_file(const fs::path& real_parent, const fs::path& shown, bool reading) const;

  output_locations where_;
};

}  // namespace opentabs::app
