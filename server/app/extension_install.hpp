// Keeps <configDir>/extension an up-to-date copy of the unpacked Chrome extension that the
// user loads (spec §2, §10 item 2): copies the extension's files from where opentabs was
// built or installed, never touching adapters/ or auth.json, and records the version and a
// content hash of the bundle (.extension-hash, sent to the extension as extensionHash).
//
// It never replaces an extension it did not install: a folder that holds another extension
// (the original OpenTabs extension, whose Chrome id comes from this path and whose stored
// settings Chrome keeps under that id) is left byte for byte as it is, unless the user asks
// for `opentabs extension install --force`, which moves the old folder to a backup first.
// Ours is recognised by a stamp file written at install time (or, for copies made before the
// stamp existed, by the manifest `key` that fixes our extension id).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "util/result.hpp"

namespace opentabs::app {

// Where the extension's source files are: $OPENTABS_EXTENSION_SOURCE, else
// <exe dir>/../share/opentabs/extension (an installed binary, found through platform::executable_path),
// else the extension/ directory of the source tree the binary was built from (development).
std::filesystem::path extension_source_dir();

// What the target folder holds before an install.
enum class extension_folder { empty, ours, foreign };

// empty: no manifest.json; ours: our stamp file, or a manifest whose `key` equals the one in
// `source`'s manifest; foreign: any other manifest.json.
extension_folder classify_extension_folder(const std::filesystem::path& source, const std::filesystem::path& target);

// "OpenTabs 0.0.115" from the folder's manifest (name and version), or "" when unreadable.
std::string extension_folder_label(const std::filesystem::path& target);

// The hash the installed bundle carries in its .extension-hash (trimmed; letters and digits,
// at most 128), which its side panel compares with sync.full.extensionHash.  Empty when the
// file is missing or malformed.
std::string installed_extension_hash(const std::filesystem::path& target);

struct install_options {
  // Replace a foreign extension: its folder is first renamed to a backup next to it, and the
  // server-owned files (auth.json, server.json, adapters/) are carried over.
  bool force = false;
  // Leave the flush to the caller: files are replaced without waiting for the disk and
  // report.wrote says whether a flush is owed (the server hands it to background_sync, so
  // the first start does not wait for the disk).  Otherwise one file-system flush ends the install.
  bool defer_sync = false;
};

struct install_report {
  extension_folder found = extension_folder::empty;  // what the target held before
  bool installed = false;     // our files are in the target now (false: a foreign one was left)
  std::size_t copied = 0;     // files written because they were new or different
  std::size_t unchanged = 0;
  bool first_install = false; // the target had no manifest.json before
  std::string extension_hash; // 16 hex digits over the copied files (also in .extension-hash)
  bool wrote = false;         // any file of the target was written (and not yet flushed when defer_sync)
  std::string foreign_label;  // found == foreign: what the folder holds ("OpenTabs 0.0.115")
  std::optional<std::filesystem::path> backup;  // --force: where the foreign folder went
};

// Copies the extension into `target` (created 0700).  Errors name the file that failed.
result<install_report> install_extension(const std::filesystem::path& source, const std::filesystem::path& target,
                                         install_options options = {});

// Whether an install failed only because the process ran out of file descriptors (EMFILE,
// ENFILE): worth trying again once connections give some back.
bool out_of_descriptors(const error& e);

// One line for users when a foreign extension was left in place: what is there, what they
// miss, and the command that replaces it (with a backup).
std::string foreign_extension_notice(const std::filesystem::path& target, const std::string& label);

}  // namespace opentabs::app
