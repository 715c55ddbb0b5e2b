#include "config/config_paths.hpp"

#include <cstdlib>
#include <string>
#include <system_error>
#include <vector>

#include "platform/folders.hpp"
#include "util/files.hpp"

namespace opentabs::config {
namespace {

std::optional<std::string_view> env(const char* name) {
  const char* v = std::getenv(name);
  if (!v) return std::nullopt;
  return std::string_view(v);
}

fs::path absolute_or_same(const fs::path& p) {
  std::error_code ec;
  auto abs = fs::absolute(p, ec);
  return ec ? p : abs.lexically_normal();
}

}  // namespace

result<fs::path> resolve_config_dir(std::optional<std::string_view> config_dir_env,
                                    std::optional<std::string_view> home_env) {
  if (config_dir_env && !config_dir_env->empty()) return absolute_or_same(fs::path(*config_dir_env));
  if (home_env && !home_env->empty()) return absolute_or_same(fs::path(*home_env) / ".opentabs");
  return make_error(errc::not_found, "cannot find the config directory: OPENTABS_CONFIG_DIR and HOME are both unset");
}

result<fs::path> home_directory() {
  // HOME (USERPROFILE on Windows); it can be missing under service managers, and then the
  // account database is the fallback.
  if (auto folders = platform::user_folders_now()) return absolute_or_same(folders->home);
  return make_error(errc::not_found, "cannot find the home directory: HOME is unset and the user has no passwd entry");
}

result<config_paths> config_paths_from_environment() {
  auto dir_env = env("OPENTABS_CONFIG_DIR");
  if (dir_env && !dir_env->empty()) return config_paths{absolute_or_same(fs::path(*dir_env))};
  auto home = home_directory();
  if (!home) return home.err();
  return config_paths{*home / ".opentabs"};
}

status ensure_private_dir(const fs::path& dir) {
  std::error_code ec;
  auto st = fs::status(dir, ec);
  if (fs::is_directory(st)) return ok();
  if (fs::exists(st)) return make_error(errc::io, "cannot use " + dir.string() + " as a directory: it is a file");
  return ensure_dir(dir, 0700);
}

status ensure_config_dir(const config_paths& paths) { return ensure_private_dir(paths.dir); }

status ensure_extension_dirs(const config_paths& paths) {
  if (auto s = ensure_config_dir(paths); !s) return s;
  if (auto s = ensure_private_dir(paths.extension_dir()); !s) return s;
  return ensure_private_dir(paths.adapters_dir());
}

}  // namespace opentabs::config
