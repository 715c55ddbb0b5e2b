// Who may read a file.  opentabs keeps secrets (auth.json, config.json) readable by the user
// alone: POSIX permission bits on Linux and macOS.  On Windows the files live in the user's
// profile, whose default ACL already grants only the user, SYSTEM and administrators; the
// mode arguments are accepted and not applied there.
#pragma once

#include <filesystem>
#include <system_error>

namespace opentabs::platform {

// Sets the permission bits of `path` (e.g. 0600, 0700).
std::error_code set_mode(const std::filesystem::path& path, unsigned mode);

// Creates the directory and missing parents, then sets its mode.
std::error_code create_directories_with_mode(const std::filesystem::path& path, unsigned mode);

// Creates one directory with `mode`, atomically: `created` is false (and no error) when
// something already exists at `path`, which is what a lock directory relies on.
std::error_code make_directory(const std::filesystem::path& path, unsigned mode, bool& created);

// Whether the current user may execute `path` (Windows: whether it exists as a file).
bool is_executable(const std::filesystem::path& path);

// The permission bits of an existing file (0 on Windows and when it cannot be read).
unsigned file_mode(const std::filesystem::path& path, std::error_code& ec);

}  // namespace opentabs::platform
