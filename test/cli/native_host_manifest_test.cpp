// The native host manifest: our extension ID from the manifest key, the per-browser
// locations on Linux, macOS and Windows, custom profiles, the manifest and the launcher script.
#include <doctest/doctest.h>

#include "cli/native_host_manifest.hpp"

using namespace opentabs;
using namespace opentabs::cli::native;

TEST_CASE("the extension ID comes from the manifest key (sha256 of the DER key, a-p)") {
  auto id = extension_id_from_manifest(fs::path(OPENTABS_SOURCE_DIR) / "extension" / "manifest.json");
  REQUIRE(id);
  CHECK(*id == "enhcedpbjdalmcjpikhimapoddplngdf");  // what Chromium reports as chrome.runtime.id
  auto bad = extension_id_from_key("not base64 !!");
  REQUIRE_FALSE(bad);
  CHECK(bad.err().is(errc::invalid_params));
}

TEST_CASE("manifest locations per browser and OS") {
  const platform::user_folders linux_user{"/home/u", "/home/u/.config", "/home/u/.local/share"};
  auto linux_all = manifest_locations(platform::os::linux_, linux_user, "all", std::nullopt);
  REQUIRE(linux_all);
  REQUIRE(linux_all->size() == 4);
  CHECK((*linux_all)[0].browser == "chrome");
  CHECK((*linux_all)[0].file() == "/home/u/.config/google-chrome/NativeMessagingHosts/com.opentabs.server.json");
  CHECK((*linux_all)[1].file() == "/home/u/.config/chromium/NativeMessagingHosts/com.opentabs.server.json");
  CHECK((*linux_all)[2].file() == "/home/u/.config/microsoft-edge/NativeMessagingHosts/com.opentabs.server.json");
  CHECK((*linux_all)[3].file() == "/home/u/.config/BraveSoftware/Brave-Browser/NativeMessagingHosts/com.opentabs.server.json");
  auto one = manifest_locations(platform::os::linux_, linux_user, "chromium", std::nullopt);
  REQUIRE(one);
  REQUIRE(one->size() == 1);
  CHECK((*one)[0].file().parent_path() == "/home/u/.config/chromium/NativeMessagingHosts");
  const platform::user_folders mac_user{"/Users/u", "/Users/u/Library/Application Support", "/Users/u/Library/Application Support"};
  auto mac = manifest_locations(platform::os::macos, mac_user, "all", std::nullopt);
  REQUIRE(mac);
  CHECK((*mac)[0].file().parent_path() == "/Users/u/Library/Application Support/Google/Chrome/NativeMessagingHosts");
  CHECK((*mac)[1].file().parent_path() == "/Users/u/Library/Application Support/Chromium/NativeMessagingHosts");
  const platform::user_folders windows_user{"C:/Users/u", "C:/Users/u/AppData/Roaming", "C:/Users/u/AppData/Local"};
  auto windows = manifest_locations(platform::os::windows, windows_user, "edge", std::nullopt);
  REQUIRE(windows);
  CHECK((*windows)[0].where.registry_key == "Software\\Microsoft\\Edge\\NativeMessagingHosts\\com.opentabs.server");
  auto custom = manifest_locations(platform::os::linux_, linux_user, "all", fs::path("/tmp/profile"));
  REQUIRE(custom);
  REQUIRE(custom->size() == 1);
  CHECK((*custom)[0].browser == "custom");
  CHECK((*custom)[0].file() == "/tmp/profile/NativeMessagingHosts/com.opentabs.server.json");
  auto unknown = manifest_locations(platform::os::linux_, linux_user, "firefox", std::nullopt);
  REQUIRE_FALSE(unknown);
  CHECK(unknown.err().message == "unknown browser 'firefox': use chrome, chromium, edge, brave or all");
}

TEST_CASE("the host manifest names only our extension") {
  auto m = host_manifest("/cfg/native-host/opentabs-native-host", "enhcedpbjdalmcjpikhimapoddplngdf");
  CHECK(json::dump(m) ==
        R"({"name":"com.opentabs.server","description":"opentabs: tells the OpenTabs extension where the local server is and starts it","path":"/cfg/native-host/opentabs-native-host","type":"stdio","allowed_origins":["chrome-extension://enhcedpbjdalmcjpikhimapoddplngdf/"]})");
}

TEST_CASE("the launcher pins the config dir (and a chosen port) and quotes paths for sh") {
  auto s = launcher_script(platform::os::linux_, "/opt/o't/opentabs", "/home/u/.opentabs", std::nullopt);
  CHECK(s.rfind("#!/bin/sh\n", 0) == 0);
  CHECK(s.find("OPENTABS_CONFIG_DIR='/home/u/.opentabs'\nexport OPENTABS_CONFIG_DIR\n") != std::string::npos);
  CHECK(s.find("OPENTABS_PORT") == std::string::npos);
  CHECK(s.find("exec '/opt/o'\\''t/opentabs' native-host run \"$@\"\n") != std::string::npos);
  auto with_port = launcher_script(platform::os::macos, "/b", "/c", std::uint16_t{9700});
  CHECK(with_port.find("OPENTABS_PORT=9700\nexport OPENTABS_PORT\n") != std::string::npos);
}

TEST_CASE("on Windows the launcher is a .cmd batch file that pins the same values") {
  CHECK(launcher_file_name(platform::os::windows) == "opentabs-native-host.cmd");
  CHECK(launcher_file_name(platform::os::linux_) == "opentabs-native-host");
  auto s = launcher_script(platform::os::windows, "C:\\Program Files\\opentabs 100%\\opentabs.exe",
                           "C:\\Users\\u\\.opentabs", std::uint16_t{9700});
  CHECK(s.rfind("@echo off\r\n", 0) == 0);
  CHECK(s.find("\n#") == std::string::npos);  // no shell comments or shebang
  CHECK(s.find("set \"OPENTABS_CONFIG_DIR=C:\\Users\\u\\.opentabs\"\r\n") != std::string::npos);
  CHECK(s.find("set \"OPENTABS_PORT=9700\"\r\n") != std::string::npos);
  // % would start a variable in a batch file: doubled, and the path stays quoted for its spaces.
  CHECK(s.find("\"C:\\Program Files\\opentabs 100%%\\opentabs.exe\" native-host run %*\r\n") != std::string::npos);
  for (std::size_t at = s.find('\n'); at != std::string::npos; at = s.find('\n', at + 1)) CHECK(s[at - 1] == '\r');
  CHECK(launcher_script(platform::os::windows, "C:\\o.exe", "C:\\c", std::nullopt).find("OPENTABS_PORT") == std::string::npos);
}
