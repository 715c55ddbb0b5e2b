// Keeps <configDir>/extension an up-to-date copy of the unpacked Chrome extension that the
// user loads (spec §2, §10 item 2): copies the extension's files from where opentabs was
// built or installed, never touching adapters/ or auth.json, and records the version and a
// content hash of the bundle (.extension-hash, sent to the extension as extensionHash).
#pragma once

#include <filesystem>
#include <string>

#include "util/result.hpp"

namespace opentabs::app {

// Where the extension's source files are: $OPENTABS_EXTENSION_SOURCE, else
// <exe dir>/../share/opentabs/extension (an installed binary, found through /proc/self/exe),
// else the extension/ directory of the source tree the binary was built from (development).
std::filesystem::path extension_source_dir();

struct install_report {
  std::size_t copied = 0;     // files written because they were new or different
  std::size_t unchanged = 0;
  bool first_install = false; // the target had no manifest.json before
  std::string extension_hash; // 16 hex digits over the copied files (also in .extension-hash)
};

// Copies the extension into `target` (created 0700).  Errors name the file that failed.
result<install_report> install_extension(const std::filesystem::path& source, const std::filesystem::path& target);

}  // namespace opentabs::app
