#include "util/rotating_file.hpp"

#include <algorithm>
#include <cstdio>

namespace opentabs {

rotating_file::rotating_file(std::filesystem::path file, std::uint64_t max_bytes)
    : path_(std::move(file)), max_bytes_(std::max(max_bytes, kMinMaxBytes)) {
  rotated_ = path_;
  rotated_ += ".1";
}

rotating_file::~rotating_file() = default;

status rotating_file::open() {
  std::error_code ec;
  file_ = platform::file_handle::open(path_, platform::file_handle::access::append, 0600, ec);
  if (ec) return make_error(errc::io, "cannot open " + path_.string() + ": " + ec.message());
  platform::file_facts facts;
  size_ = file_.facts(facts) ? 0 : facts.size;
  return ok();
}

void rotating_file::append(std::string_view bytes) {
  if (!file_.is_open()) return;
  std::error_code ec;
  size_ += file_.write(bytes, ec);
}

void rotating_file::rotate() {
  // rename() replaces server.log.1 atomically; on failure keep appending to the old file
  // rather than losing lines.
  std::error_code ec;
  std::filesystem::rename(path_, rotated_, ec);
  if (ec) return;
  auto fresh = platform::file_handle::open(path_, platform::file_handle::access::append, 0600, ec);
  if (ec) return;
  file_ = std::move(fresh);
  size_ = 0;
}

void rotating_file::write(std::string_view bytes) {
  while (!bytes.empty() && file_.is_open()) {
    std::uint64_t room = size_ < max_bytes_ ? max_bytes_ - size_ : 0;
    if (bytes.size() <= room) {
      append(bytes);
      return;
    }
    // The last newline that still fits ends this file.
    auto fits = bytes.substr(0, static_cast<std::size_t>(room));
    auto nl = fits.rfind('\n');
    if (nl != std::string_view::npos) {
      append(bytes.substr(0, nl + 1));
      bytes.remove_prefix(nl + 1);
    } else if (size_ == 0) {
      // One line longer than the whole file: cut it.
      append(fits);
      bytes.remove_prefix(fits.size());
    }
    std::uint64_t before = size_;
    rotate();
    if (size_ == before && size_ != 0) {  // rotation failed: do not loop, just append
      append(bytes);
      return;
    }
  }
}

}  // namespace opentabs
