#include "app/output_files.hpp"

#include <cstdio>

#include "platform/directory_handle.hpp"
#include "platform/file_access.hpp"
#include "platform/process_identity.hpp"
#include "util/files.hpp"
#include "util/random.hpp"

namespace opentabs::app {
namespace {

error rule(const std::string& message) { return make_error(errc::invalid_params, message); }

error io_error(const fs::path& path, const std::string& what, const std::error_code& ec) {
  return make_error(errc::io, what + " " + path.string() + ": " + ec.message());
}

// `p` is `dir` or inside it (both lexically normal, absolute).
bool within(const fs::path& p, const fs::path& dir) {
  auto rel = p.lexically_relative(dir);
  if (rel.empty()) return false;
  auto first = *rel.begin();
  return first != ".." && !rel.is_absolute();
}

bool strictly_within(const fs::path& p, const fs::path& dir) { return p != dir && within(p, dir); }

fs::path normal(const fs::path& p) {
  auto n = p.lexically_normal();
  // "/a/b/" → "/a/b": a trailing separator would make equal folders compare unequal.
  if (!n.has_filename() && n.has_parent_path() && n != n.root_path()) n = n.parent_path();
  return n;
}

// realpath() of an existing path; the lexical path when it does not exist (yet).
fs::path real_or_lexical(const fs::path& p) {
  std::error_code ec;
  auto real = fs::canonical(p, ec);
  return ec ? normal(p) : normal(real);
}

fs::path expand(const std::string& entry, const fs::path& config_dir, const fs::path& home) {
  if (entry == "~") return home;
  if (entry.rfind("~/", 0) == 0) return home / entry.substr(2);
  fs::path p(entry);
  if (p.is_absolute()) return p;
  return config_dir / p;
}

}  // namespace

output_locations output_locations_from_config(const config::config_file& cfg, const fs::path& config_dir,
                                              const fs::path& home) {
  output_locations out;
  out.config_dir = normal(config_dir);
  out.output_dir = normal(cfg.output_directory && !cfg.output_directory->empty()
                              ? expand(*cfg.output_directory, config_dir, home)
                              : config_dir / "output");
  for (const auto& entry : cfg.additional_allowed_directories)
    if (!entry.empty()) out.additional_dirs.push_back(normal(expand(entry, config_dir, home)));
  return out;
}

output_file_policy::output_file_policy(output_locations where) : where_(std::move(where)) {
  where_.config_dir = normal(where_.config_dir);
  where_.output_dir = normal(where_.output_dir);
  for (auto& d : where_.additional_dirs) d = normal(d);
}

result<output_file_policy::target> output_file_policy::locate(std::string_view requested) const {
  if (requested.empty()) return rule("filePath is empty; give a file name (saved in the output folder " +
                                     where_.output_dir.string() + ") or a path inside it");
  if (requested.find('\0') != std::string_view::npos) return rule("filePath contains a NUL character");
  fs::path given{std::string(requested)};
  for (const auto& part : given)
    if (part == "..") return rule("filePath " + given.string() + " contains '..'; tool outputs never leave their folder");
  if (!given.has_filename() || given.filename() == ".")
    return rule("filePath " + given.string() + " does not name a file");
  const fs::path full = normal(given.is_absolute() ? given : where_.output_dir / given);

  std::vector<fs::path> roots{where_.output_dir};
  for (const auto& d : where_.additional_dirs)
    if (d.is_absolute()) roots.push_back(d);
  for (const auto& root : roots) {
    if (!strictly_within(full, root)) continue;
    target t;
    t.root = root;
    t.full = full;
    auto rel = full.lexically_relative(root);
    for (const auto& part : rel) t.subdirs.push_back(part.string());
    t.name = t.subdirs.back();
    t.subdirs.pop_back();
    return t;
  }
  std::string allowed = where_.output_dir.string();
  for (std::size_t i = 1; i < roots.size(); ++i) allowed += ", " + roots[i].string();
  return rule(full.string() + " is outside the folders tools may write to (" + allowed +
              "); give a file name to save it in the output folder, or add a folder to additionalAllowedDirectories");
}

result<fs::path> output_file_policy::resolve(std::string_view requested) const {
  auto t = locate(requested);
  if (!t) return t.err();
  return t->full;
}

status output_file_policy::check_not_config_file(const fs::path& real_parent, const fs::path& shown, bool reading) const {
  const fs::path config = real_or_lexical(where_.config_dir);
  if (!within(real_parent, config)) return ok();
  // The one place inside the config folder that takes tool outputs: an output folder below
  // it that is not one of the server's own folders.
  const fs::path output = real_or_lexical(where_.output_dir);
  const bool output_is_private = strictly_within(output, config) && !within(output, config / "extension") &&
                                 !within(output, config / "logs");
  if (output_is_private && within(real_parent, output)) return ok();
  if (reading)
    return rule(shown.string() + " is inside the opentabs config folder " + config.string() +
                ", whose files (config.json, auth.json, logs, extension/) tools never read; put the file in the output folder " +
                where_.output_dir.string() + " instead");
  return rule(shown.string() + " is inside the opentabs config folder " + config.string() +
              ", whose files (config.json, auth.json, logs, extension/) tools never write; save it in the output folder " +
              where_.output_dir.string() + " instead");
}

result<fs::path> output_file_policy::readable(std::string_view requested) const {
  auto located = locate(requested);
  if (!located) return located.err();
  const target& t = *located;
  std::error_code ec;
  const fs::path real_root = fs::canonical(t.root, ec);
  if (ec) return rule("the folder " + t.root.string() + " for " + t.full.string() + " does not exist");
  fs::path expected = real_root;
  for (const auto& d : t.subdirs) expected /= d;
  expected /= t.name;
  // canonical() resolves every link: any difference from the plain walk means a symbolic
  // link below the allowed folder (or at the file).
  const fs::path real = fs::canonical(t.full, ec);
  if (ec) return rule(t.full.string() + " does not exist or cannot be read");
  if (normal(real) != normal(expected))
    return rule(t.full.string() + " is or passes through a symbolic link; uploads never follow links below " + t.root.string());
  platform::file_facts st;
  if (platform::facts_of(real, st, false) || st.kind != platform::file_kind::regular)
    return rule(t.full.string() + " is not a regular file");
  if (auto st2 = check_not_config_file(normal(real.parent_path()), t.full, true); !st2) return st2.err();
  return normal(real);
}

namespace {

// Opens, below `dir` (the allowed folder `root`), each of `subdirs` in turn, creating what is
// missing and following no symbolic link; `dir` ends as the file's folder.
status open_below(platform::directory_handle& dir, const fs::path& root, const std::vector<std::string>& subdirs) {
  fs::path walked = root;
  for (const auto& d : subdirs) {
    walked /= d;
    std::error_code ec;
    auto next = dir.open_subdirectory(d, 0700, ec);
    if (ec == std::errc::too_many_symbolic_link_levels)
      return rule(walked.string() + " is a symbolic link; tool outputs never follow links below " + root.string());
    if (ec == std::errc::not_a_directory) return rule(walked.string() + " is not a folder");
    if (ec) return io_error(walked, "cannot open folder", ec);
    dir = std::move(next);
  }
  return ok();
}

// What is already at the file's name may be replaced only if it is a regular file and the
// caller asked to overwrite.
status check_replaceable(const platform::directory_handle& dir, const std::string& name, const fs::path& full,
                         bool overwrite) {
  platform::file_facts st;
  if (auto ec = dir.entry_facts(name, st); !ec) {
    if (st.kind == platform::file_kind::symlink) return rule(full.string() + " is a symbolic link; tool outputs never write through links");
    if (st.kind != platform::file_kind::regular) return rule(full.string() + " exists and is not a regular file");
    if (!overwrite) return rule(full.string() + " already exists; pass overwrite: true to replace it");
  } else if (ec != std::errc::no_such_file_or_directory) {
    return io_error(full, "cannot inspect", ec);
  }
  return ok();
}

// Writes a temporary file beside the target, flushes it and renames it into place, so a
// reader sees the old file or the whole new one.
status save_atomically(const platform::directory_handle& dir, const std::string& name, const fs::path& full,
                       std::string_view content, bool overwrite) {
  const std::string tmp =
      "." + name.substr(0, 100) + ".tmp." + std::to_string(platform::current_process_id()) + "." + random_hex(4);
  {
    std::error_code ec;
    auto file = dir.create_new_file(tmp, 0600, ec);
    if (ec) return io_error(full.parent_path() / tmp, "cannot create", ec);
    file.write(content, ec);
    if (!ec) ec = file.set_mode(0600);
    if (!ec) ec = file.flush_to_disk();
    if (ec) {
      file.close();
      (void)dir.remove(tmp);
      return io_error(full, "cannot write", ec);
    }
  }
  // A rename replaces a directory entry: it never writes through a link or a hard link.
  if (auto ec = dir.rename(tmp, name, overwrite)) {
    (void)dir.remove(tmp);
    if (ec == std::errc::file_exists) return rule(full.string() + " already exists; pass overwrite: true to replace it");
    return io_error(full, "cannot save", ec);
  }
  (void)dir.flush();
  return ok();
}

}  // namespace

result<fs::path> output_file_policy::write(std::string_view requested, std::string_view content, bool overwrite) const {
  auto located = locate(requested);
  if (!located) return located.err();
  const target& t = *located;

  std::error_code ec;
  if (t.root == where_.output_dir && !fs::exists(t.root, ec)) {
    fs::create_directories(t.root, ec);
    if (ec) return make_error(errc::io, "cannot create the output folder " + t.root.string() + ": " + ec.message());
    (void)platform::set_mode(t.root, 0700);
  }
  // The allowed folder itself may be reached through a symlink the user set up (a linked
  // home, say); below it nothing is followed.
  const fs::path real_root = fs::canonical(t.root, ec);
  if (ec) return rule("the folder " + t.root.string() + " for " + t.full.string() + " does not exist");
  fs::path real_parent = real_root;
  for (const auto& d : t.subdirs) real_parent /= d;
  if (auto st = check_not_config_file(normal(real_parent), t.full, false); !st) return st.err();

  auto dir = platform::directory_handle::open(real_root, ec);
  if (ec) return io_error(real_root, "cannot open folder", ec);
  if (auto st = open_below(dir, t.root, t.subdirs); !st) return st.err();
  if (auto st = check_replaceable(dir, t.name, t.full, overwrite); !st) return st.err();
  if (auto st = save_atomically(dir, t.name, t.full, content, overwrite); !st) return st.err();
  return t.full;
}

}  // namespace opentabs::app
