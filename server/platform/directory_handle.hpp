// An open folder in which files are created, inspected, renamed and removed by name, never
// through a symbolic link: the tool-output writer uses it so that a link planted below the
// allowed folder cannot redirect a write.  POSIX works relative to the open descriptor
// (openat, renameat2); Windows keeps the folder open and refuses reparse points by name.
#pragma once

#include <filesystem>
#include <string>
#include <system_error>

#include "platform/file_handle.hpp"

namespace opentabs::platform {

class directory_handle {
 public:
  // Opens the folder `path` (links in it are followed: the caller chose it).
  static directory_handle open(const std::filesystem::path& path, std::error_code& ec);

  directory_handle() = default;
  directory_handle(directory_handle&& other) noexcept;
  directory_handle& operator=(directory_handle&& other) noexcept;
  directory_handle(const directory_handle&) = delete;
  directory_handle& operator=(const directory_handle&) = delete;
  ~directory_handle();

  bool is_open() const noexcept { return h_ != kNoHandle; }

  // The subfolder `name`, created with `mode` when missing.  Errors:
  // std::errc::too_many_symbolic_link_levels (it is a link), std::errc::not_a_directory.
  directory_handle open_subdirectory(const std::string& name, unsigned mode, std::error_code& ec) const;
  // Facts of the entry `name` itself (a link is described, not followed).
  std::error_code entry_facts(const std::string& name, file_facts& out) const;
  // A new file `name` (std::errc::file_exists when something is there), for writing.
  file_handle create_new_file(const std::string& name, unsigned mode, std::error_code& ec) const;
  // Renames `from` to `to` in this folder; with !replace, std::errc::file_exists when `to`
  // exists.  Renaming replaces the directory entry: it never writes through a link.
  std::error_code rename(const std::string& from, const std::string& to, bool replace) const;
  std::error_code remove(const std::string& name) const;
  // Makes the folder's entries (a rename) durable.
  std::error_code flush() const;

 private:
  native_handle h_ = kNoHandle;
  std::filesystem::path path_;  // Windows: operations go by name below this path
};

}  // namespace opentabs::platform
