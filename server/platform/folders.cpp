#include "platform/folders.hpp"

#include <charconv>

namespace opentabs::platform {

namespace {

std::optional<std::filesystem::path> nonempty(const environment_lookup& env, std::string_view name) {
  auto v = env(name);
  if (!v || v->empty()) return std::nullopt;
  return std::filesystem::path(*v);
}

// XDG values must be absolute POSIX paths; judged by their text, so that the rule gives
// the Linux answer on any OS.
std::optional<std::filesystem::path> absolute_only(const environment_lookup& env, std::string_view name) {
  auto v = env(name);
  if (!v || v->empty() || v->front() != '/') return std::nullopt;
  return std::filesystem::path(*v);
}

}  // namespace

std::optional<user_folders> user_folders_for(os target, const environment_lookup& env,
                                             const std::optional<std::filesystem::path>& account_home) {
  user_folders f;
  auto home = nonempty(env, target == os::windows ? "USERPROFILE" : "HOME");
  if (!home) home = account_home;
  if (!home || home->empty()) return std::nullopt;
  f.home = *home;
  switch (target) {
    case os::linux_:
      f.config = absolute_only(env, "XDG_CONFIG_HOME").value_or(f.home / ".config");
      f.data = absolute_only(env, "XDG_DATA_HOME").value_or(f.home / ".local" / "share");
      break;
    case os::macos:
      f.config = f.home / "Library" / "Application Support";
      f.data = f.config;
      break;
    case os::windows:
      f.config = nonempty(env, "APPDATA").value_or(f.home / "AppData" / "Roaming");
      f.data = nonempty(env, "LOCALAPPDATA").value_or(f.home / "AppData" / "Local");
      break;
  }
  return f;
}

std::optional<std::filesystem::path> home_in_passwd(std::string_view passwd_text, unsigned long uid) {
  while (!passwd_text.empty()) {
    const auto end = passwd_text.find('\n');
    std::string_view line = passwd_text.substr(0, end);
    passwd_text = end == std::string_view::npos ? std::string_view() : passwd_text.substr(end + 1);
    std::string_view fields[7];
    std::size_t count = 0;
    for (; count < 7; ++count) {
      const auto colon = line.find(':');
      fields[count] = line.substr(0, colon);
      if (colon == std::string_view::npos) break;
      line.remove_prefix(colon + 1);
    }
    if (count != 6) continue;  // not the seven fields of a passwd line
    unsigned long line_uid = 0;
    const auto uid_text = fields[2];
    const auto [rest, ec] = std::from_chars(uid_text.data(), uid_text.data() + uid_text.size(), line_uid);
    if (ec != std::errc() || rest != uid_text.data() + uid_text.size() || uid_text.empty() || line_uid != uid) continue;
    if (fields[5].empty()) return std::nullopt;
    return std::filesystem::path(std::string(fields[5]));
  }
  return std::nullopt;
}

std::optional<user_folders> user_folders_now() {
  return user_folders_for(current_os(), environment_variable, account_home_directory());
}

}  // namespace opentabs::platform
