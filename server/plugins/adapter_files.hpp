// Adapter files on disk (spec §2 table, §4.2, §6.8): each plugin's IIFE is written to
// `<configDir>/extension/adapters/<plugin>-<hash8>.js` (hash8 = first 8 hex digits of the
// SHA-256 of the IIFE), its source map to `<plugin>-<hash8>.js.map` with the IIFE's
// sourceMappingURL rewritten to that name, and its pre-script to
// `<plugin>-prescript-<hash8>.js`.  The extension injects them by relative path.  Writes are
// atomic (temp file + rename) and skipped when the file already has the same content; they
// do not wait for the disk — the caller flushes once when anything was written (the server
// through background_sync, since one fsync per file would dominate a start with many
// plugins), and every
// reload compares the files again.  Files of plugins that are gone are deleted, and leftover
// `__exec-*.js` scripts are removed on request.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "plugins/loader.hpp"

namespace opentabs::plugins {

// <configDir>/extension/adapters
fs::path adapters_dir(const fs::path& config_dir);

std::string hash8(std::string_view content);

// Paths relative to the extension directory, as they travel in sync.full.
struct adapter_file_names {
  std::string adapter_file;     // "adapters/<plugin>-<hash8>.js"
  std::string source_map_file;  // "adapters/<plugin>-<hash8>.js.map" (only when a map exists)
  std::string pre_script_file;  // "adapters/<plugin>-prescript-<hash8>.js" (only with a pre-script)
};
adapter_file_names adapter_file_names_for(const loaded_plugin& p);

// Replaces "sourceMappingURL=adapter.iife.js.map" with "sourceMappingURL=<map_name>".
std::string rewrite_source_mapping_url(std::string_view iife, std::string_view map_name);

struct adapter_write_report {
  std::vector<std::string> written;    // file names (no directory)
  std::vector<std::string> unchanged;
  std::vector<std::string> removed;
  std::vector<std::string> errors;     // one line per failed write/delete
};

// One file to write into the adapters folder: its name (no directory) and content.
struct adapter_file {
  std::string name;
  std::string content;
};

// The files `plugins` need (adapter, rewritten source map, pre-script), as values that can
// be written later or on another thread.
std::vector<adapter_file> adapter_files_for(const std::vector<const loaded_plugin*>& plugins);

// Writes `files` into `dir` (created 0700 if missing) and deletes adapter-named files that
// are not among them.
adapter_write_report write_adapter_file_list(const fs::path& dir, const std::vector<adapter_file>& files);

// Both of the above.
adapter_write_report write_adapter_files(const fs::path& dir, const std::vector<const loaded_plugin*>& plugins);

// Deletes `__exec-*.js` files; returns the names removed.
std::vector<std::string> remove_exec_leftovers(const fs::path& dir);

}  // namespace opentabs::plugins
