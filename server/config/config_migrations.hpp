// Versioned config.json migrations (spec §2.1), as pure functions on the JSON object:
//   1 → 2: a setting string starting with http:// or https:// becomes {"default": "<url>"}
//          (url-type settings became instance maps);
//   2 → 3: absolute localPlugins paths under $HOME become "~/..." so the file survives a
//          moved or renamed home directory.
// Files without a valid version count as version 1.  Newer versions are left untouched
// with a warning.  Taking the backup and persisting the result is config_store's job.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "json/json.hpp"

namespace opentabs::config {

namespace fs = std::filesystem;

void migrate_v1_to_v2(json::object& root);
void migrate_v2_to_v3(json::object& root, const fs::path& home);

struct migration_outcome {
  int from_version = 0;
  int to_version = 0;
  bool migrated = false;              // the object was changed and must be persisted
  std::vector<std::string> messages;  // one line per step, or the "newer version" warning
};

// Runs every pending migration on `root` and sets its "version" to the current one.
// `path` only labels the messages.
migration_outcome migrate(json::object& root, const fs::path& home, const fs::path& path);

// "~/x" for a path under `home`, else the path unchanged.  Purely lexical.
std::string contract_home(const std::string& path, const fs::path& home);
// The reverse: "~/x" → "<home>/x"; anything else unchanged.
std::string expand_home(const std::string& path, const fs::path& home);

}  // namespace opentabs::config
