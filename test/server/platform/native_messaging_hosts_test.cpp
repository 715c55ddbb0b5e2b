// Tests for where each browser looks for a native-messaging host on each OS (pure), and
// for registering and removing one in a folder (the Linux/macOS mechanism).
#include "platform/native_messaging_hosts.hpp"

#include <doctest/doctest.h>

#include "platform/durable_file.hpp"
#include "temp_folder.hpp"

using namespace opentabs::platform;
namespace fs = std::filesystem;

namespace {
constexpr std::string_view kHost = "com.opentabs.server";
const user_folders kLinux{"/home/ann", "/home/ann/.config", "/home/ann/.local/share"};
const user_folders kMac{"/Users/ann", "/Users/ann/Library/Application Support", "/Users/ann/Library/Application Support"};
const user_folders kWindows{"C:/Users/ann", "C:/Users/ann/AppData/Roaming", "C:/Users/ann/AppData/Local"};
}  // namespace

TEST_CASE("Linux: a manifest file in each browser's folder under the XDG config folder") {
  auto chrome = host_location_for(os::linux_, browser::chrome, kLinux, kHost);
  CHECK(chrome.manifest_file == fs::path("/home/ann/.config/google-chrome/NativeMessagingHosts/com.opentabs.server.json"));
  CHECK(chrome.registry_key.empty());
  CHECK(host_location_for(os::linux_, browser::chromium, kLinux, kHost).manifest_file ==
        fs::path("/home/ann/.config/chromium/NativeMessagingHosts/com.opentabs.server.json"));
  CHECK(host_location_for(os::linux_, browser::edge, kLinux, kHost).manifest_file ==
        fs::path("/home/ann/.config/microsoft-edge/NativeMessagingHosts/com.opentabs.server.json"));
  CHECK(host_location_for(os::linux_, browser::brave, kLinux, kHost).manifest_file ==
        fs::path("/home/ann/.config/BraveSoftware/Brave-Browser/NativeMessagingHosts/com.opentabs.server.json"));
}

TEST_CASE("macOS: a manifest file under ~/Library/Application Support") {
  CHECK(host_location_for(os::macos, browser::chrome, kMac, kHost).manifest_file ==
        fs::path("/Users/ann/Library/Application Support/Google/Chrome/NativeMessagingHosts/com.opentabs.server.json"));
  CHECK(host_location_for(os::macos, browser::chromium, kMac, kHost).manifest_file ==
        fs::path("/Users/ann/Library/Application Support/Chromium/NativeMessagingHosts/com.opentabs.server.json"));
  CHECK(host_location_for(os::macos, browser::edge, kMac, kHost).manifest_file ==
        fs::path("/Users/ann/Library/Application Support/Microsoft Edge/NativeMessagingHosts/com.opentabs.server.json"));
  CHECK(host_location_for(os::macos, browser::brave, kMac, kHost).manifest_file ==
        fs::path("/Users/ann/Library/Application Support/BraveSoftware/Brave-Browser/NativeMessagingHosts/com.opentabs.server.json"));
}

TEST_CASE("Windows: a registry key under HKEY_CURRENT_USER per browser, naming our manifest file") {
  auto chrome = host_location_for(os::windows, browser::chrome, kWindows, kHost);
  CHECK(chrome.registry_key == "Software\\Google\\Chrome\\NativeMessagingHosts\\com.opentabs.server");
  CHECK(chrome.manifest_file == fs::path("C:/Users/ann/AppData/Local") / "opentabs" / "NativeMessagingHosts" / "chrome" /
                                    "com.opentabs.server.json");
  CHECK(host_location_for(os::windows, browser::chromium, kWindows, kHost).registry_key ==
        "Software\\Chromium\\NativeMessagingHosts\\com.opentabs.server");
  CHECK(host_location_for(os::windows, browser::edge, kWindows, kHost).registry_key ==
        "Software\\Microsoft\\Edge\\NativeMessagingHosts\\com.opentabs.server");
  CHECK(host_location_for(os::windows, browser::brave, kWindows, kHost).registry_key ==
        "Software\\BraveSoftware\\Brave-Browser\\NativeMessagingHosts\\com.opentabs.server");
}

TEST_CASE("browser names round-trip and unknown names are refused") {
  for (auto b : kAllBrowsers) CHECK(browser_from_name(browser_name(b)) == b);
  CHECK_FALSE(browser_from_name("firefox"));
  CHECK_FALSE(browser_from_name(""));
}

TEST_CASE("register_host writes the manifest where the browser reads it; unregister_host removes it") {
  testing::temp_folder d;
  auto where = host_location_in_profile(d.path / "profile", kHost);
  CHECK(where.manifest_file == d.path / "profile" / "NativeMessagingHosts" / "com.opentabs.server.json");
  CHECK_FALSE(host_registered(where));
  REQUIRE_FALSE(register_host(where, "{\"name\":\"com.opentabs.server\"}"));
  CHECK(host_registered(where));
  std::string text;
  REQUIRE_FALSE(read_file(where.manifest_file, 1024, text));
  CHECK(text == "{\"name\":\"com.opentabs.server\"}");
  REQUIRE_FALSE(unregister_host(where));
  CHECK_FALSE(host_registered(where));
  CHECK_FALSE(unregister_host(where));  // nothing left to remove is no error
}
