// Whole-file reads and writes with the durability rules the project relies on.  A replace
// goes through a temp file in the same directory and a rename, so a crash at any moment
// leaves the old content or the new, never a mix; how it is flushed is each OS's own
// (fsync on Linux, F_FULLFSYNC on macOS, FlushFileBuffers + MoveFileEx write-through on
// Windows).
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

namespace opentabs::platform {

enum class durability {
  // The content and the rename are on the disk before replace_file returns.
  on_return,
  // A crash of the process keeps old-or-new, but a power loss before the next
  // flush_filesystem() of the folder can leave the file old or empty.  Only for files
  // rewritten from their sources at every start.
  next_flush,
};

// Replaces `path` with `content`, the file created with permission bits `mode` (where the OS
// has them).
std::error_code replace_file(const std::filesystem::path& path, std::string_view content, unsigned mode,
                             durability when);

// Flushes every file written so far on the file system holding `dir` (Linux: syncfs; macOS:
// sync + a full flush of the device; Windows: files are flushed one by one as they are
// written, so there is nothing left to do).
std::error_code flush_filesystem(const std::filesystem::path& dir);

// Appends `content` in one write (O_APPEND where the OS has it), creating the file with
// `mode`; not flushed.
std::error_code append_file(const std::filesystem::path& path, std::string_view content, unsigned mode);

// Reads the whole file into `out` when it holds at most `max_bytes`.  Errors:
// std::errc::no_such_file_or_directory, std::errc::file_too_large, or the OS's.
std::error_code read_file(const std::filesystem::path& path, std::size_t max_bytes, std::string& out);

}  // namespace opentabs::platform
