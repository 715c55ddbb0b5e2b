// An open file with the guards a file in a user-writable folder needs: the last path
// component is never followed as a symbolic link (so a planted link cannot redirect a log
// or a secret), opening never blocks on a FIFO or device, and nothing leaks into child
// processes.  Also the facts (kind, size, links, identity) the callers check before they
// trust a file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

#include "platform/child_process.hpp"

namespace opentabs::platform {

enum class file_kind { regular, directory, symlink, fifo, device, socket, other };

struct file_facts {
  file_kind kind = file_kind::other;
  std::uint64_t size = 0;
  std::uint64_t links = 0;  // 0 once the file was deleted while open
  // Together: which file this is (a rename or replacement changes them).
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  // Nanoseconds since the epoch: the last content change, and the last content or metadata
  // change (Windows records no metadata change time: the content time is repeated).
  std::int64_t modified_ns = 0;
  std::int64_t changed_ns = 0;
};

// Facts of the file at `path`; `follow_links` false describes a symlink itself.
std::error_code facts_of(const std::filesystem::path& path, file_facts& out, bool follow_links);

class file_handle {
 public:
  enum class access {
    read,    // existing files only
    append,  // created with create_mode when missing; every write goes to the end
    write,   // created with create_mode when missing, or truncated
  };

  // std::errc::too_many_symbolic_link_levels when the last component is a symbolic link.
  static file_handle open(const std::filesystem::path& path, access how, unsigned create_mode, std::error_code& ec);

  file_handle() = default;
  file_handle(file_handle&& other) noexcept : h_(other.release()) {}
  file_handle& operator=(file_handle&& other) noexcept;
  file_handle(const file_handle&) = delete;
  file_handle& operator=(const file_handle&) = delete;
  ~file_handle() { close(); }

  // Takes ownership of an open file handle (directory_handle creates files this way).
  static file_handle adopt(native_handle h) noexcept { return file_handle(h); }

  bool is_open() const noexcept { return h_ != kNoHandle; }
  void close() noexcept;
  native_handle release() noexcept {
    auto h = h_;
    h_ = kNoHandle;
    return h;
  }

  std::error_code facts(file_facts& out) const;
  // Writes all of `data` unless an error stops it; returns what was written (`ec` says why
  // it stopped short).
  std::size_t write(std::string_view data, std::error_code& ec) noexcept;
  // Up to `size` bytes: from the current position, or at `offset`.  0 at the end, -1 on an error.
  std::ptrdiff_t read_some(char* buf, std::size_t size) noexcept;
  std::ptrdiff_t read_at(std::uint64_t offset, char* buf, std::size_t size) noexcept;
  std::error_code flush_to_disk() noexcept;
  // Takes an exclusive advisory lock without waiting (flock / LockFileEx); false when another
  // process holds one.  Released when the handle closes.
  bool try_lock_exclusive() noexcept;
  // Sets the permission bits (no-op on Windows, see file_access.hpp).
  std::error_code set_mode(unsigned mode) noexcept;

 private:
  explicit file_handle(native_handle h) noexcept : h_(h) {}
  native_handle h_ = kNoHandle;
};

}  // namespace opentabs::platform
