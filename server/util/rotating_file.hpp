// An append-only log file kept under a size, rotated the way audit.log is: when the next
// write would take the file past `max_bytes`, it is renamed to "<file>.1" (replacing the
// previous one, so at most two files exist) and a fresh file is started.  The cut falls
// right after a newline, so no line is split across the two files (only a single line
// longer than `max_bytes` is cut hard).  Used for server.log (cli/log_tee), whose writer
// is one thread.  Writes are best effort: a full disk must not stop the server.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "platform/file_handle.hpp"
#include "util/result.hpp"

namespace opentabs {

class rotating_file {
 public:
  static constexpr std::uint64_t kDefaultMaxBytes = 10 * 1024 * 1024;  // as audit.log
  static constexpr std::uint64_t kMinMaxBytes = 4096;

  // `max_bytes` below kMinMaxBytes is raised to it.
  rotating_file(std::filesystem::path file, std::uint64_t max_bytes);
  ~rotating_file();
  rotating_file(const rotating_file&) = delete;
  rotating_file& operator=(const rotating_file&) = delete;

  // Opens (creating, mode 0600) the file for appending.
  status open();
  void write(std::string_view bytes);

  std::uint64_t size() const { return size_; }
  std::uint64_t max_bytes() const { return max_bytes_; }
  const std::filesystem::path& rotated_path() const { return rotated_; }

 private:
  void rotate();
  void append(std::string_view bytes);

  std::filesystem::path path_;
  std::filesystem::path rotated_;
  std::uint64_t max_bytes_;
  std::uint64_t size_ = 0;
  platform::file_handle file_;  // opened for appending, never through a symlink
};

}  // namespace opentabs
