// File-system primitives with the durability rules the project relies on, as results: reads
// are bounded, writes are atomic (temp file in the same directory, flushed, renamed, the
// directory flushed; platform/durable_file.hpp does it each OS's way) so a SIGKILL mid-write
// leaves either the old or the new content, never a mix.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

#include "util/result.hpp"

namespace opentabs {

namespace fs = std::filesystem;

// Reads a whole file of at most max_bytes.  Errors: "not_found", "too_large", "io".
result<std::string> read_file(const fs::path& path, std::size_t max_bytes);

// Replaces `path` atomically with `content`, creating it with `mode`.
status write_file_atomic(const fs::path& path, std::string_view content, unsigned mode = 0600);

// Replaces `path` with `content` through a temp file and a rename, without waiting for the
// disk: a SIGKILL leaves the old or the new content, but a power loss before the next flush
// (background_sync) can leave the file empty or old.  Only for files the server rewrites
// from their sources at every start (the extension copy, adapters, extension/server.json).
status write_file_unsynced(const fs::path& path, std::string_view content, unsigned mode);

// Flushes every file written so far on the file system holding `dir` (platform::flush_filesystem).
status sync_filesystem(const fs::path& dir);

// Appends `content` with O_APPEND (one write call) and fsync-free; creates with `mode`.
status append_file(const fs::path& path, std::string_view content, unsigned mode = 0600);

// Creates the directory (and parents) and sets its mode.
status ensure_dir(const fs::path& path, unsigned mode = 0700);

}  // namespace opentabs
