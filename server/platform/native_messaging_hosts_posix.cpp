// Linux and macOS: the manifest file alone registers the host.
#include "platform/durable_file.hpp"
#include "platform/file_access.hpp"
#include "platform/native_messaging_hosts.hpp"

namespace opentabs::platform {

std::error_code register_host(const host_location& where, std::string_view manifest_json) {
  std::error_code ec;
  std::filesystem::create_directories(where.manifest_file.parent_path(), ec);
  if (ec) return ec;
  return replace_file(where.manifest_file, manifest_json, 0644, durability::on_return);
}

std::error_code unregister_host(const host_location& where) {
  std::error_code ec;
  std::filesystem::remove(where.manifest_file, ec);
  return ec;
}

bool host_registered(const host_location& where) {
  std::error_code ec;
  return std::filesystem::is_regular_file(where.manifest_file, ec);
}

}  // namespace opentabs::platform
