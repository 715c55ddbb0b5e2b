// Where Chrome, Chromium, Edge and Brave look for a native-messaging host, and registering
// one there.  Linux and macOS: a manifest file `<host>.json` in the browser's
// NativeMessagingHosts folder.  Windows: the manifest file lives in our data folder and the
// registry key HKEY_CURRENT_USER\<browser key>\NativeMessagingHosts\<host> names it.
#pragma once

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>

#include "platform/folders.hpp"
#include "platform/os.hpp"

namespace opentabs::platform {

enum class browser { chrome, chromium, edge, brave };

inline constexpr browser kAllBrowsers[] = {browser::chrome, browser::chromium, browser::edge, browser::brave};

std::string_view browser_name(browser b) noexcept;
std::optional<browser> browser_from_name(std::string_view name) noexcept;

struct host_location {
  browser which = browser::chrome;
  // The manifest file (Linux, macOS: inside the folder the browser reads).
  std::filesystem::path manifest_file;
  // Windows only: the key under HKEY_CURRENT_USER whose default value is manifest_file.
  std::string registry_key;
};

// Pure: where `which` looks for host `host_name` on `target`, given the user's folders.
host_location host_location_for(os target, browser which, const user_folders& folders, std::string_view host_name);

// Pure: a host in a browser profile started with --user-data-dir (Linux and macOS read
// <dir>/NativeMessagingHosts; Windows browsers read only the registry).
host_location host_location_in_profile(const std::filesystem::path& user_data_dir, std::string_view host_name);

// Writes the manifest (durably, readable by all: the browser reads it) and, on Windows,
// points the registry key at it.
std::error_code register_host(const host_location& where, std::string_view manifest_json);

// Removes the manifest and, on Windows, the registry key.  Nothing registered is no error.
std::error_code unregister_host(const host_location& where);

// Whether the browser would find a manifest at `where` (Windows: the key names the file).
bool host_registered(const host_location& where);

}  // namespace opentabs::platform
