// The user's folders on each OS: home, the per-user config folder (XDG_CONFIG_HOME on
// Linux, ~/Library/Application Support on macOS, %APPDATA% on Windows) and data folder
// (XDG_DATA_HOME, ~/Library/Application Support, %LOCALAPPDATA%).  The rules are pure
// functions of an OS and its environment values, so every OS's answer is tested anywhere;
// user_folders_now() applies them to this process.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "platform/os.hpp"

namespace opentabs::platform {

// The value of an environment variable, nullopt when unset.
using environment_lookup = std::function<std::optional<std::string>(std::string_view name)>;

struct user_folders {
  std::filesystem::path home;
  std::filesystem::path config;
  std::filesystem::path data;
};

// Pure.  `account_home` is the home the account database names (passwd), used when the
// environment names none.  nullopt when no home can be found.  Relative values of the XDG
// variables are ignored, as the XDG spec says.
std::optional<user_folders> user_folders_for(os target, const environment_lookup& env,
                                             const std::optional<std::filesystem::path>& account_home);

// This process's environment variable (UTF-8 on every OS).
std::optional<std::string> environment_variable(std::string_view name);

// The home directory the OS's account database records for the current user.  On Linux
// that is /etc/passwd itself: the release binary links glibc statically, and a static
// glibc cannot load the NSS modules (LDAP, SSSD) getpwuid would consult, so an account
// known only there needs HOME set, as every login shell sets it.
std::optional<std::filesystem::path> account_home_directory();

// Pure.  The home field of the entry for `uid` in passwd-format text (name:pw:uid:gid:
// gecos:home:shell lines); nullopt when no well-formed line names that uid or its home is
// empty.
std::optional<std::filesystem::path> home_in_passwd(std::string_view passwd_text, unsigned long uid);

// user_folders_for(current_os(), environment_variable, account_home_directory()).
std::optional<user_folders> user_folders_now();

}  // namespace opentabs::platform
