// The native host manifest: our extension ID from the manifest key, the per-browser
// directories on Linux and macOS, custom profiles, the manifest and the launcher script.
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

TEST_CASE("manifest directories per browser and platform") {
  auto linux_all = manifest_locations(platform::linux_, "/home/u", std::nullopt, "all", std::nullopt);
  REQUIRE(linux_all);
  REQUIRE(linux_all->size() == 2);
  CHECK((*linux_all)[0].file() == "/home/u/.config/google-chrome/NativeMessagingHosts/com.opentabs.server.json");
  CHECK((*linux_all)[1].file() == "/home/u/.config/chromium/NativeMessagingHosts/com.opentabs.server.json");
  auto xdg = manifest_locations(platform::linux_, "/home/u", std::string_view("/xdg"), "chromium", std::nullopt);
  REQUIRE(xdg);
  CHECK((*xdg)[0].dir == "/xdg/chromium/NativeMessagingHosts");
  auto relative_xdg = manifest_locations(platform::linux_, "/home/u", std::string_view("rel"), "chromium", std::nullopt);
  CHECK((*relative_xdg)[0].dir == "/home/u/.config/chromium/NativeMessagingHosts");
  auto mac = manifest_locations(platform::macos, "/Users/u", std::nullopt, "all", std::nullopt);
  REQUIRE(mac);
  CHECK((*mac)[0].dir == "/Users/u/Library/Application Support/Google/Chrome/NativeMessagingHosts");
  CHECK((*mac)[1].dir == "/Users/u/Library/Application Support/Chromium/NativeMessagingHosts");
  auto custom = manifest_locations(platform::linux_, "/home/u", std::nullopt, "all", fs::path("/tmp/profile"));
  REQUIRE(custom);
  REQUIRE(custom->size() == 1);
  CHECK((*custom)[0].browser == "custom");
  CHECK((*custom)[0].file() == "/tmp/profile/NativeMessagingHosts/com.opentabs.server.json");
  auto unknown = manifest_locations(platform::linux_, "/home/u", std::nullopt, "firefox", std::nullopt);
  REQUIRE_FALSE(unknown);
  CHECK(unknown.err().message == "unknown browser 'firefox': use chrome, chromium or all");
}

TEST_CASE("the host manifest names only our extension") {
  auto m = host_manifest("/cfg/native-host/opentabs-native-host", "enhcedpbjdalmcjpikhimapoddplngdf");
  CHECK(json::dump(m) ==
        R"({"name":"com.opentabs.server","description":"opentabs: tells the OpenTabs extension where the local server is and starts it","path":"/cfg/native-host/opentabs-native-host","type":"stdio","allowed_origins":["chrome-extension://enhcedpbjdalmcjpikhimapoddplngdf/"]})");
}

TEST_CASE("the launcher pins the config dir (and a chosen port) and quotes paths for sh") {
  auto s = launcher_script("/opt/o't/opentabs", "/home/u/.opentabs", std::nullopt);
  CHECK(s.rfind("#!/bin/sh\n", 0) == 0);
  CHECK(s.find("OPENTABS_CONFIG_DIR='/home/u/.opentabs'\nexport OPENTABS_CONFIG_DIR\n") != std::string::npos);
  CHECK(s.find("OPENTABS_PORT") == std::string::npos);
  CHECK(s.find("exec '/opt/o'\\''t/opentabs' native-host run \"$@\"\n") != std::string::npos);
  auto with_port = launcher_script("/b", "/c", std::uint16_t{9700});
  CHECK(with_port.find("OPENTABS_PORT=9700\nexport OPENTABS_PORT\n") != std::string::npos);
}
