#include "config/config_store.hpp"

#include "config/config_migrations.hpp"
#include "config/config_paths.hpp"
#include "util/files.hpp"

namespace opentabs::config {

config_store::config_store(fs::path config_json, fs::path home) : path_(std::move(config_json)), home_(std::move(home)) {}

fs::path config_store::backup_path() const {
  fs::path p = path_;
  p += ".backup";
  return p;
}

result<config_store::current> config_store::read_current() {
  current out;
  auto text = read_file(path_, kMaxConfigBytes);
  if (!text) {
    if (text.err().code == "not_found") {
      out.missing = true;
      out.root = default_config_object();
      return out;
    }
    if (text.err().code == "too_large")
      return make_error("too_large", "Cannot load " + path_.string() + ": larger than " +
                                         std::to_string(kMaxConfigBytes) + " bytes");
    return text.err();
  }
  auto root = parse_config_text(*text, path_);
  if (!root) return root.err();
  out.root = std::move(*root);

  auto migration = migrate(out.root, home_, path_);
  out.warnings.insert(out.warnings.end(), migration.messages.begin(), migration.messages.end());
  if (migration.migrated) {
    // Keep the user's original bytes before replacing them, as the original server does.
    if (auto b = write_file_atomic(backup_path(), *text, 0600); !b) {
      out.warnings.push_back("Config migration not persisted: cannot write backup: " + b.err().message);
      // Still use the migrated object in memory; the file is left unchanged.
    } else if (auto w = write_file_atomic(path_, format_config_text(out.root), 0600); !w) {
      out.warnings.push_back("Config migration not persisted: " + w.err().message);
    } else {
      out.warnings.push_back("Config backup written to " + backup_path().string());
    }
    out.migrated_from = migration.from_version;
  }
  return out;
}

result<loaded_config> config_store::load() {
  auto cur = read_current();
  if (!cur) return cur.err();
  loaded_config out;
  out.warnings = std::move(cur->warnings);
  out.migrated_from = cur->migrated_from;
  if (cur->missing) {
    out.created = true;
    status written = ensure_private_dir(path_.parent_path());
    if (written) written = write_file_atomic(path_, default_config_text(), 0600);
    if (!written)
      out.warnings.push_back("Cannot create default config: " + written.err().message + "; using defaults in memory");
  }
  out.cfg = config_from_object(cur->root, path_, out.warnings);
  out.raw = std::move(cur->root);
  return out;
}

result<loaded_config> config_store::update(const edit_fn& edit) {
  auto cur = read_current();
  if (!cur) return cur.err();
  auto changed = edit(cur->root);
  if (!changed) return changed.err();
  loaded_config out;
  out.warnings = std::move(cur->warnings);
  out.migrated_from = cur->migrated_from;
  out.created = cur->missing;
  if (*changed || cur->missing) {
    auto text = format_config_text(cur->root);
    // Never write a file the next load would refuse: the change is rejected and config.json
    // stays as it was.
    if (text.size() > kMaxConfigBytes)
      return make_error("too_large", "the change would make " + path_.string() + " " + std::to_string(text.size()) +
                                         " bytes, over the " + std::to_string(kMaxConfigBytes) + "-byte limit; nothing was saved");
    if (auto d = ensure_private_dir(path_.parent_path()); !d) return d.err();
    if (auto w = write_file_atomic(path_, text, 0600); !w) return w.err();
  }
  out.cfg = config_from_object(cur->root, path_, out.warnings);
  out.raw = std::move(cur->root);
  return out;
}

}  // namespace opentabs::config
