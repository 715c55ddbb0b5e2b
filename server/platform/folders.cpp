#include "platform/folders.hpp"

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

std::optional<user_folders> user_folders_now() {
  return user_folders_for(current_os(), environment_variable, account_home_directory());
}

}  // namespace opentabs::platform
