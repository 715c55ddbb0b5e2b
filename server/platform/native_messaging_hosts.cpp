#include "platform/native_messaging_hosts.hpp"

namespace opentabs::platform {

namespace {

struct browser_places {
  browser which;
  std::string_view name;
  std::string_view linux_dir;    // under the XDG config folder
  std::string_view macos_dir;    // under ~/Library/Application Support
  std::string_view windows_key;  // under HKEY_CURRENT_USER
};

constexpr browser_places kPlaces[] = {
    {browser::chrome, "chrome", "google-chrome", "Google/Chrome", "Software\\Google\\Chrome"},
    {browser::chromium, "chromium", "chromium", "Chromium", "Software\\Chromium"},
    {browser::edge, "edge", "microsoft-edge", "Microsoft Edge", "Software\\Microsoft\\Edge"},
    {browser::brave, "brave", "BraveSoftware/Brave-Browser", "BraveSoftware/Brave-Browser",
     "Software\\BraveSoftware\\Brave-Browser"},
};

const browser_places& places_of(browser b) {
  for (const auto& p : kPlaces)
    if (p.which == b) return p;
  return kPlaces[0];
}

std::string manifest_name(std::string_view host_name) { return std::string(host_name) + ".json"; }

}  // namespace

std::string_view browser_name(browser b) noexcept { return places_of(b).name; }

std::optional<browser> browser_from_name(std::string_view name) noexcept {
  for (const auto& p : kPlaces)
    if (p.name == name) return p.which;
  return std::nullopt;
}

host_location host_location_for(os target, browser which, const user_folders& folders, std::string_view host_name) {
  const auto& p = places_of(which);
  host_location loc;
  loc.which = which;
  switch (target) {
    case os::linux_:
      loc.manifest_file = folders.config / std::filesystem::path(p.linux_dir) / "NativeMessagingHosts" / manifest_name(host_name);
      break;
    case os::macos:
      loc.manifest_file = folders.config / std::filesystem::path(p.macos_dir) / "NativeMessagingHosts" / manifest_name(host_name);
      break;
    case os::windows:
      loc.manifest_file = folders.data / "opentabs" / "NativeMessagingHosts" / std::string(p.name) / manifest_name(host_name);
      loc.registry_key = std::string(p.windows_key) + "\\NativeMessagingHosts\\" + std::string(host_name);
      break;
  }
  return loc;
}

host_location host_location_in_profile(const std::filesystem::path& user_data_dir, std::string_view host_name) {
  host_location loc;
  loc.manifest_file = user_data_dir / "NativeMessagingHosts" / manifest_name(host_name);
  return loc;
}

}  // namespace opentabs::platform
