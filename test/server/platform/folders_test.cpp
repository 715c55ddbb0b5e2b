// Tests for the per-OS folder rules (pure: every OS's answer is checked here) and for the
// live lookup of this process.
#include "platform/folders.hpp"

#if defined(__linux__)
#include <pwd.h>
#include <unistd.h>

#include <vector>
#endif

#include <doctest/doctest.h>

#include <map>

using namespace opentabs::platform;
namespace fs = std::filesystem;

namespace {

environment_lookup env_of(std::map<std::string, std::string> values) {
  return [values = std::move(values)](std::string_view name) -> std::optional<std::string> {
    auto it = values.find(std::string(name));
    if (it == values.end()) return std::nullopt;
    return it->second;
  };
}

}  // namespace

TEST_CASE("Linux folders follow XDG, with ~/.config and ~/.local/share as defaults") {
  auto f = user_folders_for(os::linux_, env_of({{"HOME", "/home/ann"}}), std::nullopt);
  REQUIRE(f);
  CHECK(f->home == fs::path("/home/ann"));
  CHECK(f->config == fs::path("/home/ann/.config"));
  CHECK(f->data == fs::path("/home/ann/.local/share"));
  auto xdg = user_folders_for(os::linux_, env_of({{"HOME", "/home/ann"}, {"XDG_CONFIG_HOME", "/cfg"}, {"XDG_DATA_HOME", "/dat"}}),
                              std::nullopt);
  CHECK(xdg->config == fs::path("/cfg"));
  CHECK(xdg->data == fs::path("/dat"));
  // The XDG spec says relative values are to be ignored.
  auto relative = user_folders_for(os::linux_, env_of({{"HOME", "/home/ann"}, {"XDG_CONFIG_HOME", "cfg"}}), std::nullopt);
  CHECK(relative->config == fs::path("/home/ann/.config"));
}

TEST_CASE("macOS folders are under ~/Library/Application Support and ignore XDG") {
  auto f = user_folders_for(os::macos, env_of({{"HOME", "/Users/ann"}, {"XDG_CONFIG_HOME", "/cfg"}}), std::nullopt);
  REQUIRE(f);
  CHECK(f->config == fs::path("/Users/ann/Library/Application Support"));
  CHECK(f->data == f->config);
}

TEST_CASE("Windows folders come from USERPROFILE, APPDATA and LOCALAPPDATA") {
  auto f = user_folders_for(os::windows,
                            env_of({{"USERPROFILE", "C:/Users/ann"}, {"APPDATA", "C:/Users/ann/AppData/Roaming"},
                                    {"LOCALAPPDATA", "D:/local"}, {"HOME", "/ignored"}}),
                            std::nullopt);
  REQUIRE(f);
  CHECK(f->home == fs::path("C:/Users/ann"));
  CHECK(f->config == fs::path("C:/Users/ann/AppData/Roaming"));
  CHECK(f->data == fs::path("D:/local"));
  auto defaults = user_folders_for(os::windows, env_of({{"USERPROFILE", "C:/Users/bo"}}), std::nullopt);
  CHECK(defaults->config == fs::path("C:/Users/bo") / "AppData" / "Roaming");
  CHECK(defaults->data == fs::path("C:/Users/bo") / "AppData" / "Local");
}

TEST_CASE("the account's home is the fallback when the environment names none") {
  auto f = user_folders_for(os::linux_, env_of({{"HOME", ""}}), fs::path("/var/lib/svc"));
  REQUIRE(f);
  CHECK(f->home == fs::path("/var/lib/svc"));
  CHECK_FALSE(user_folders_for(os::macos, env_of({}), std::nullopt));
}

TEST_CASE("a passwd file gives the home of the line whose uid matches") {
  const std::string_view text =
      "root:x:0:0:root:/root:/bin/bash\n"
      "broken line without fields\n"
      "short:x:1000:1000:too few\n"
      "nine:x:9x:9:not a number:/nine:/bin/sh\n"
      "ada:x:1000:1000:Ada,,,:/home/ada:/bin/bash\n"
      "nohome:x:1001:1001:::/bin/sh\n"
      "last:x:1002:1002::/home/last:/bin/sh";  // no newline at the end
  CHECK(home_in_passwd(text, 0) == fs::path("/root"));
  CHECK(home_in_passwd(text, 1000) == fs::path("/home/ada"));
  CHECK(home_in_passwd(text, 1002) == fs::path("/home/last"));
  CHECK_FALSE(home_in_passwd(text, 1001));  // an empty home is no home
  CHECK_FALSE(home_in_passwd(text, 9));
  CHECK_FALSE(home_in_passwd(text, 4242));
  CHECK_FALSE(home_in_passwd("", 0));
}

#if defined(__linux__)
TEST_CASE("on Linux the account's home is read from /etc/passwd as the C library reads it") {
  passwd pw{};
  passwd* found = nullptr;
  std::vector<char> buf(16384);
  REQUIRE(::getpwuid_r(::getuid(), &pw, buf.data(), buf.size(), &found) == 0);
  if (!found) return;  // an account that only an NSS module knows: not this machine's case
  CHECK(account_home_directory() == fs::path(found->pw_dir));
}
#endif

TEST_CASE("this process's folders: HOME (or USERPROFILE) is what the environment says") {
  auto f = user_folders_now();
  REQUIRE(f);
  auto home = environment_variable(current_os() == os::windows ? "USERPROFILE" : "HOME");
  if (home && !home->empty()) CHECK(f->home == fs::path(*home));
  CHECK_FALSE(environment_variable("OPENTABS_SURELY_UNSET_VARIABLE_FOR_TEST"));
}
