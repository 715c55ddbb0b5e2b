// Where opentabs keeps its files: the config directory ($OPENTABS_CONFIG_DIR, else
// ~/.opentabs) and every well-known path inside it (spec §2).  Resolution is a pure
// function of the environment values so tests and the CLI can resolve without side effects;
// ensure_config_dir() is the one call that touches the disk.
#pragma once

#include <filesystem>
#include <optional>
#include <string_view>

#include "util/result.hpp"

namespace opentabs::config {

namespace fs = std::filesystem;

// The config directory and the files in it.  All paths are absolute.
struct config_paths {
  fs::path dir;

  fs::path config_json() const { return dir / "config.json"; }
  fs::path config_backup() const { return dir / "config.json.backup"; }
  fs::path extension_dir() const { return dir / "extension"; }
  fs::path auth_json() const { return extension_dir() / "auth.json"; }
  fs::path adapters_dir() const { return extension_dir() / "adapters"; }
  fs::path audit_log() const { return dir / "audit.log"; }
  fs::path audit_log_rotated() const { return dir / "audit.log.1"; }
  fs::path server_log() const { return dir / "server.log"; }
  fs::path server_pid() const { return dir / "server.pid"; }
  fs::path logs_dir() const { return dir / "logs"; }
  fs::path stdio_bridge_log() const { return logs_dir() / "stdio-bridge.log"; }
};

// The config directory from the values of OPENTABS_CONFIG_DIR and HOME (nullopt = unset).
// An empty OPENTABS_CONFIG_DIR counts as unset, as in the original.  A relative
// OPENTABS_CONFIG_DIR is made absolute against the current directory.
// Error "no_home" when neither gives a directory.
result<fs::path> resolve_config_dir(std::optional<std::string_view> config_dir_env,
                                    std::optional<std::string_view> home_env);

// The user's home directory: $HOME, else the passwd entry.  Error "no_home".
result<fs::path> home_directory();

// resolve_config_dir() with the real environment.
result<config_paths> config_paths_from_environment();

// Creates `dir` (and missing parents) when it does not exist, giving it mode 0700.  An
// existing directory keeps its mode: OPENTABS_CONFIG_DIR may point at a directory shared
// with other things, and chmod-ing someone's /tmp or home would do harm.  Error "io" when
// it cannot be created or exists as something other than a directory.
status ensure_private_dir(const fs::path& dir);

// ensure_private_dir() for the config directory.
status ensure_config_dir(const config_paths& paths);

// ensure_private_dir() for the config directory, extension/ and extension/adapters/.
status ensure_extension_dirs(const config_paths& paths);

}  // namespace opentabs::config
