#include "app/output_files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "util/files.hpp"
#include "util/random.hpp"

namespace opentabs::app {
namespace {

error rule(const std::string& message) { return make_error(errc::invalid_params, message); }

error io_error(const fs::path& path, const std::string& what) {
  return make_error(errc::io, what + " " + path.string() + ": " + std::strerror(errno));
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

// Closes a descriptor on every exit path.
class fd_guard {
 public:
  explicit fd_guard(int fd = -1) : fd_(fd) {}
  fd_guard(const fd_guard&) = delete;
  fd_guard& operator=(const fd_guard&) = delete;
  ~fd_guard() { reset(); }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

// rename(2) that fails with EEXIST instead of replacing; hard link + unlink where the file
// system has no RENAME_NOREPLACE.
int rename_no_replace(int dirfd, const char* from, const char* to) {
  if (::renameat2(dirfd, from, dirfd, to, RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP) return -1;
  if (::linkat(dirfd, from, dirfd, to, 0) != 0) return -1;
  ::unlinkat(dirfd, from, 0);
  return 0;
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
  struct stat st{};
  if (::lstat(real.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return rule(t.full.string() + " is not a regular file");
  if (auto st2 = check_not_config_file(normal(real.parent_path()), t.full, true); !st2) return st2.err();
  return normal(real);
}

namespace {

// Opens, below `dir` (the allowed folder `root`), each of `subdirs` in turn, creating what is
// missing and following no symbolic link; `dir` ends as the file's folder.
status open_below(fd_guard& dir, const fs::path& root, const std::vector<std::string>& subdirs) {
  fs::path walked = root;
  for (const auto& d : subdirs) {
    walked /= d;
    if (::mkdirat(dir.get(), d.c_str(), 0700) != 0 && errno != EEXIST) return io_error(walked, "cannot create folder");
    int next = ::openat(dir.get(), d.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (next < 0) {
      struct stat st{};
      if (::fstatat(dir.get(), d.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
        return rule(walked.string() + " is a symbolic link; tool outputs never follow links below " + root.string());
      if (errno == ENOTDIR) return rule(walked.string() + " is not a folder");
      return io_error(walked, "cannot open folder");
    }
    dir.reset(next);
  }
  return ok();
}

// What is already at the file's name may be replaced only if it is a regular file and the
// caller asked to overwrite.
status check_replaceable(int dir, const std::string& name, const fs::path& full, bool overwrite) {
  struct stat st{};
  if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
    if (S_ISLNK(st.st_mode)) return rule(full.string() + " is a symbolic link; tool outputs never write through links");
    if (!S_ISREG(st.st_mode)) return rule(full.string() + " exists and is not a regular file");
    if (!overwrite) return rule(full.string() + " already exists; pass overwrite: true to replace it");
  } else if (errno != ENOENT) {
    return io_error(full, "cannot inspect");
  }
  return ok();
}

// Writes a temporary file beside the target, flushes it and renames it into place, so a
// reader sees the old file or the whole new one.
status save_atomically(int dir, const std::string& name, const fs::path& full, std::string_view content, bool overwrite) {
  const std::string tmp = "." + name.substr(0, 100) + ".tmp." + std::to_string(::getpid()) + "." + random_hex(4);
  {
    fd_guard file(::openat(dir, tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (file.get() < 0) return io_error(full.parent_path() / tmp, "cannot create");
    if (!write_all(file.get(), content) || ::fchmod(file.get(), 0600) != 0 || ::fsync(file.get()) != 0) {
      auto e = io_error(full, "cannot write");
      ::unlinkat(dir, tmp.c_str(), 0);
      return e;
    }
  }
  // rename(2) replaces a directory entry: it never writes through a link or a hard link.
  const int renamed = overwrite ? ::renameat(dir, tmp.c_str(), dir, name.c_str()) : rename_no_replace(dir, tmp.c_str(), name.c_str());
  if (renamed != 0) {
    const int saved = errno;
    ::unlinkat(dir, tmp.c_str(), 0);
    if (saved == EEXIST) return rule(full.string() + " already exists; pass overwrite: true to replace it");
    errno = saved;
    return io_error(full, "cannot save");
  }
  ::fsync(dir);
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
    ::chmod(t.root.c_str(), 0700);
  }
  // The allowed folder itself may be reached through a symlink the user set up (a linked
  // home, say); below it nothing is followed.
  const fs::path real_root = fs::canonical(t.root, ec);
  if (ec) return rule("the folder " + t.root.string() + " for " + t.full.string() + " does not exist");
  fs::path real_parent = real_root;
  for (const auto& d : t.subdirs) real_parent /= d;
  if (auto st = check_not_config_file(normal(real_parent), t.full, false); !st) return st.err();

  fd_guard dir(::open(real_root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir.get() < 0) return io_error(real_root, "cannot open folder");
  if (auto st = open_below(dir, t.root, t.subdirs); !st) return st.err();
  if (auto st = check_replaceable(dir.get(), t.name, t.full, overwrite); !st) return st.err();
  if (auto st = save_atomically(dir.get(), t.name, t.full, content, overwrite); !st) return st.err();
  return t.full;
}

}  // namespace opentabs::app
