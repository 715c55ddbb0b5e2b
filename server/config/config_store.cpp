#include "config/config_store.hpp"

#include "config/config_failure.hpp"
#include "config/config_lock.hpp"
#include "config/config_migrations.hpp"
#include "config/config_paths.hpp"
#include "platform/file_handle.hpp"
#include "util/files.hpp"

namespace opentabs::config {

file_stamp stamp_of(const fs::path& p) {
  platform::file_facts f;
  if (platform::facts_of(p, f, true)) return {};
  return {static_cast<std::int64_t>(f.device), static_cast<std::int64_t>(f.inode), f.modified_ns, f.changed_ns,
          static_cast<std::int64_t>(f.size)};
}

config_store::config_store(fs::path config_json, fs::path home) : path_(std::move(config_json)), home_(std::move(home)) {}

fs::path config_store::backup_path() const {
  fs::path p = path_;
  p += ".backup";
  return p;
}

result<config_store::current> config_store::read_current(bool may_write) {
  current out;
  // Stamp before reading: a change racing the read makes the watcher look again rather
  // than miss it.
  last_stamp_ = stamp_of(path_);
  auto text = read_file(path_, kMaxConfigBytes);
  if (!text) {
    if (text.err().is(errc::not_found)) {
      out.missing = true;
      out.root = default_config_object();
      return out;
    }
    if (text.err().is(errc::too_large))
      return make_error(errc::too_large, "Cannot load " + path_.string() + ": larger than " +
                                         std::to_string(kMaxConfigBytes) + " bytes");
    return text.err();
  }
  auto root = parse_config_text(*text, path_);
  if (!root) return root.err();
  out.root = std::move(*root);

  auto migration = migrate(out.root, home_, path_);
  out.warnings.insert(out.warnings.end(), migration.messages.begin(), migration.messages.end());
  if (migration.migrated && !may_write) {
    out.warnings.push_back("Config migration not persisted yet: " + path_.string() + " is locked by another writer");
  } else if (migration.migrated) {
    // Keep the user's original bytes before replacing them, as the original server does.
    if (auto b = write_file_atomic(backup_path(), *text, 0600); !b) {
      out.warnings.push_back("Config migration not persisted: cannot write backup: " + b.err().message);
      // Still use the migrated object in memory; the file is left unchanged.
    } else if (auto w = write_file_atomic(path_, format_config_text(out.root), 0600); !w) {
      out.warnings.push_back("Config migration not persisted: " + w.err().message);
    } else {
      last_stamp_ = stamp_of(path_);
      out.warnings.push_back("Config backup written to " + backup_path().string());
    }
    out.migrated_from = migration.from_version;
  }
  return out;
}

result<loaded_config> config_store::load() {
  // Reading needs no lock (every writer renames a complete file into place); writing the
  // default file, a migration or pending edits does.
  std::optional<config_lock> lock;
  std::string lock_problem;
  if (auto d = ensure_private_dir(path_.parent_path()); !d) {
    lock_problem = d.err().message;
  } else if (auto l = config_lock::acquire(path_, patience_)) {
    lock.emplace(std::move(*l));
  } else {
    lock_problem = l.err().message;
  }
  auto cur = read_current(lock.has_value());
  if (!cur) return cur.err();
  if (lock) return write_locked(std::move(*cur), nullptr);
  loaded_config out;
  out.warnings = std::move(cur->warnings);
  out.migrated_from = cur->migrated_from;
  out.created = cur->missing;
  if (cur->missing)
    out.warnings.push_back("Cannot create default config: " + lock_problem + "; using defaults in memory");
  else if (!pending_.empty())
    out.warnings.push_back("config.json not written yet: " + lock_problem);
  apply_pending(cur->root, out.warnings);
  out.cfg = config_from_object(cur->root, path_, out.warnings);
  out.raw = std::move(cur->root);
  return out;
}

void config_store::apply_pending(json::object& root, std::vector<std::string>& warnings) const {
  for (const auto& edit : pending_)
    if (auto r = edit(root); !r) warnings.push_back("A config change waiting for the lock no longer applies: " + r.err().message);
}

result<loaded_config> config_store::write_locked(current cur, const edit_fn* edit) {
  const bool had_pending = !pending_.empty();
  loaded_config out;
  out.warnings = std::move(cur.warnings);
  out.migrated_from = cur.migrated_from;
  out.created = cur.missing;
  apply_pending(cur.root, out.warnings);
  bool changed = false;
  if (edit) {
    auto c = (*edit)(cur.root);
    if (!c) return c.err();
    changed = *c;
  }
  if (changed || had_pending || cur.missing) {
    auto text = format_config_text(cur.root);
    // Never write a file the next load would refuse: the change is rejected and config.json
    // stays as it was.
    if (text.size() > kMaxConfigBytes) {
      if (!edit) {  // they would never fit: drop them rather than retry forever
        pending_.clear();
        dropped_through_ = kept_count_;
      }
      return make_error(errc::too_large, "the change would make " + path_.string() + " " + std::to_string(text.size()) +
                                         " bytes, over the " + std::to_string(kMaxConfigBytes) + "-byte limit; nothing was saved");
    }
    status written = ensure_private_dir(path_.parent_path());
    if (written) written = write_file_atomic(path_, text, 0600);
    if (!written) {
      // Creating the default file is best effort; an edit that cannot be saved is an error.
      if (changed || had_pending) return written.err();
      out.warnings.push_back("Cannot create default config: " + written.err().message + "; using defaults in memory");
    } else {
      pending_.clear();
      written_through_ = kept_count_;
      last_stamp_ = stamp_of(path_);
    }
  }
  out.cfg = config_from_object(cur.root, path_, out.warnings);
  out.raw = std::move(cur.root);
  return out;
}

result<loaded_config> config_store::update(const edit_fn& edit) {
  if (auto d = ensure_private_dir(path_.parent_path()); !d) return d.err();
  auto lock = config_lock::acquire(path_, patience_);
  if (lock) {
    auto cur = read_current(true);
    if (!cur) return cur.err();
    return write_locked(std::move(*cur), &edit);
  }
  if (!lock.err().is(config_failure::locked) || !on_deferred_) return lock.err();
  // Held by another writer: apply it to what is on disk now, keep it, write it later.
  auto cur = read_current(false);
  if (!cur) return cur.err();
  loaded_config out;
  out.warnings = std::move(cur->warnings);
  out.migrated_from = cur->migrated_from;
  apply_pending(cur->root, out.warnings);
  auto changed = edit(cur->root);
  if (!changed) return changed.err();
  if (*changed) {
    pending_.push_back(edit);
    ++kept_count_;
    on_deferred_();
  }
  out.cfg = config_from_object(cur->root, path_, out.warnings);
  out.raw = std::move(cur->root);
  return out;
}

result<loaded_config> config_store::write_pending() {
  auto lock = config_lock::try_acquire(path_);
  if (!lock) return lock.err();
  auto cur = read_current(true);
  if (!cur) return cur.err();
  return write_locked(std::move(*cur), nullptr);
}

status config_store::remove() {
  std::error_code ec;
  if (!fs::exists(path_.parent_path(), ec)) return ok();
  auto lock = config_lock::acquire(path_, patience_);
  if (!lock) return lock.err();
  fs::remove(path_, ec);
  if (ec) return make_error(errc::io, "cannot delete " + path_.string() + ": " + ec.message());
  last_stamp_ = stamp_of(path_);
  return ok();
}

result<std::size_t> config_store::remove_leftover_temp_files() {
  std::error_code ec;
  const fs::path dir = path_.parent_path();
  if (!fs::is_directory(dir, ec)) return std::size_t{0};
  auto lock = config_lock::acquire(path_, patience_);
  if (!lock) return lock.err();
  const std::string prefixes[] = {path_.filename().string() + ".tmp.", backup_path().filename().string() + ".tmp."};
  std::size_t removed = 0;
  constexpr std::size_t max_entries = 100000;  // a huge folder is not ours to walk forever
  std::size_t seen = 0;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator() && seen < max_entries;
       it.increment(ec), ++seen) {
    const std::string name = it->path().filename().string();
    bool ours = false;
    for (const auto& p : prefixes) ours = ours || name.rfind(p, 0) == 0;
    std::error_code type_ec;
    if (!ours || !it->is_regular_file(type_ec) || it->is_symlink(type_ec)) continue;
    std::error_code rm_ec;
    if (fs::remove(it->path(), rm_ec)) ++removed;
  }
  return removed;
}

}  // namespace opentabs::config
