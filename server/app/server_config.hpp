// What the server was started with and the config it runs on: paths, config.json's store
// and its last good contents, the secret and the start-up switches.  The reload pipeline
// writes it (a config reload, the server's own config changes); everyone else reads it.
#pragma once

#include <filesystem>
#include <string>

#include "config/config.hpp"
#include "config/config_paths.hpp"
#include "config/config_store.hpp"

namespace opentabs::app {

struct server_config {
  server_config(config::config_paths p, std::filesystem::path home)
      : paths(std::move(p)), store(paths.config_json(), std::move(home)) {}

  config::config_paths paths;
  config::config_store store;
  config::config_file cfg;  // the last good config
  // The version of config.json `cfg` was read from or written as: the config watcher
  // reloads when the file on disk is no longer this version.
  config::file_stamp cfg_stamp;
  std::string secret;  // never logged
  bool skip_permissions = false;
  bool dev = false;
  std::string server_source_path;  // where the server's own files live (sync.full)
};

}  // namespace opentabs::app
