#include "util/files.hpp"

#include <system_error>

#include "platform/durable_file.hpp"
#include "platform/file_access.hpp"

namespace opentabs {
namespace {

error io_error(const fs::path& path, const char* what, const std::error_code& ec) {
  return make_error(errc::io, std::string(what) + " " + path.string() + ": " + ec.message());
}

}  // namespace

result<std::string> read_file(const fs::path& path, std::size_t max_bytes) {
  std::string out;
  auto ec = platform::read_file(path, max_bytes, out);
  if (ec == std::errc::no_such_file_or_directory) return make_error(errc::not_found, path.string() + " does not exist");
  if (ec == std::errc::file_too_large)
    return make_error(errc::too_large, path.string() + " is larger than " + std::to_string(max_bytes) + " bytes");
  if (ec) return io_error(path, "cannot read", ec);
  return out;
}

status write_file_atomic(const fs::path& path, std::string_view content, unsigned mode) {
  if (auto ec = platform::replace_file(path, content, mode, platform::durability::on_return))
    return io_error(path, "cannot create or replace", ec);
  return ok();
}

status write_file_unsynced(const fs::path& path, std::string_view content, unsigned mode) {
  if (auto ec = platform::replace_file(path, content, mode, platform::durability::next_flush))
    return io_error(path, "cannot create or replace", ec);
  return ok();
}

status sync_filesystem(const fs::path& dir) {
  if (auto ec = platform::flush_filesystem(dir)) return io_error(dir, "cannot sync", ec);
  return ok();
}

status append_file(const fs::path& path, std::string_view content, unsigned mode) {
  if (auto ec = platform::append_file(path, content, mode)) return io_error(path, "cannot append to", ec);
  return ok();
}

status ensure_dir(const fs::path& path, unsigned mode) {
  std::error_code ec;
  fs::create_directories(path, ec);
  if (ec) return make_error(errc::io, "cannot create directory " + path.string() + ": " + ec.message());
  if (auto e = platform::set_mode(path, mode)) return io_error(path, "cannot chmod", e);
  return ok();
}

}  // namespace opentabs
