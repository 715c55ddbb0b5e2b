// Where Chrome, Chromium, Edge and Brave look for our native-messaging host, what its manifest contains, and
// the extension ID it must name: `allowed_origins` holds exactly our extension, whose ID is
// fixed by the `key` in extension/manifest.json (SHA-256 of the DER public key, the first 32
// hex digits mapped 0-f → a-p).  Pure: locations are computed from the given OS and user
// folders (platform/native_messaging_hosts.hpp), so every rule is unit-tested.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/json.hpp"
#include "platform/folders.hpp"
#include "platform/native_messaging_hosts.hpp"
#include "platform/os.hpp"
#include "util/result.hpp"

namespace opentabs::cli::native {

namespace fs = std::filesystem;

inline constexpr std::string_view kHostName = "com.opentabs.server";

// The extension ID for a manifest `key` (base64 DER SubjectPublicKeyInfo).  Error
// "bad_key" when the text is not base64.
result<std::string> extension_id_from_key(std::string_view base64_key);
// The `key` of an extension manifest.json file → its ID.
result<std::string> extension_id_from_manifest(const fs::path& manifest_json);

struct manifest_location {
  std::string browser;  // "chrome", "chromium", "edge", "brave" or "custom"
  platform::host_location where;
  const fs::path& file() const { return where.manifest_file; }
};

// Where the host is registered for `browser` ("chrome", "chromium", "edge", "brave" or
// "all") on `target` with the user's `folders` (platform/native_messaging_hosts.hpp), or the
// one manifest of a custom profile (`user_data_dir`).  Error "usage" for an unknown browser.
result<std::vector<manifest_location>> manifest_locations(platform::os target, const platform::user_folders& folders,
                                                          std::string_view browser,
                                                          std::optional<fs::path> user_data_dir);

// The host manifest Chrome reads.
json::object host_manifest(const fs::path& launcher, std::string_view extension_id);

// The launcher's file name on `target`: Windows starts a host through a batch file, the
// others through a shell script.
std::string_view launcher_file_name(platform::os target);

// The launcher script Chrome starts on `target`: pins the config dir (and port, when given)
// and runs `opentabs native-host run` with Chrome's arguments.  A /bin/sh script on Linux
// and macOS, a .cmd batch file on Windows.
std::string launcher_script(platform::os target, const fs::path& binary, const fs::path& config_dir,
                            std::optional<std::uint16_t> port);

}  // namespace opentabs::cli::native
