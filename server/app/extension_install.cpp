#include "app/extension_install.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <cstdlib>
#include <system_error>
#include <utility>
#include <vector>

#include "json/json.hpp"
#include "platform/executable_path.hpp"
#include "util/clock.hpp"
#include "util/sha256.hpp"
#include "util/files.hpp"

namespace opentabs::app {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kHashFile = ".extension-hash";
// Written into the target by every install of ours; its presence is what makes the folder ours.
constexpr std::string_view kStampFile = ".opentabs-installed-by";
constexpr std::size_t kMaxManifest = 1024 * 1024;

// Never copied: development files, and what the server owns inside the target.
bool skipped(const fs::path& rel) {
  auto first = rel.begin()->string();
  if (first == "node_modules" || first == "adapters" || first == "test" || first == ".git") return true;
  auto name = rel.filename().string();
  return name == "auth.json" || name == "package.json" || name == "package-lock.json" || name == "README.md" ||
         name == "server.json" || name == kHashFile || name == ".opentabs-version" || name == kStampFile ||
         name.ends_with(".test.mjs") || name.ends_with(".test.js");
}

// 16 hex digits over the sorted (path, content hash) pairs of the copied files: the same
// bundle gives the same hash wherever it is installed.
std::string bundle_hash(std::vector<std::pair<std::string, std::string>> files) {
  std::sort(files.begin(), files.end());
  std::string listing;
  for (const auto& [rel, digest] : files) {
    listing += rel;
    listing += '\0';
    listing += digest;
    listing += '\n';
  }
  return sha256_hex(listing).substr(0, 16);
}

constexpr std::size_t kMaxExtensionFile = 16 * 1024 * 1024;

std::optional<json::object> read_manifest(const fs::path& dir) {
  auto text = read_file(dir / "manifest.json", kMaxManifest);
  if (!text) return std::nullopt;
  auto parsed = json::parse_object(*text);
  if (!parsed) return std::nullopt;
  return std::move(*parsed);
}

std::string manifest_key(const std::optional<json::object>& manifest) {
  if (!manifest) return "";
  const auto* key = json::get_string(*manifest, "key");
  return key ? std::string(*key) : std::string();
}

// <target>-backup-<UTC time>[-n], next to the target.
fs::path backup_path_for(const fs::path& target) {
  const std::string iso = iso8601_now();  // YYYY-MM-DDTHH:MM:SS.mmmZ
  const std::string stamp = iso.substr(0, 4) + iso.substr(5, 2) + iso.substr(8, 2) + "-" + iso.substr(11, 2) +
                            iso.substr(14, 2) + iso.substr(17, 2);
  fs::path base = target;
  if (!base.has_filename()) base = base.parent_path();
  std::string name = base.filename().string() + "-backup-" + stamp;
  std::error_code ec;
  fs::path candidate = base.parent_path() / name;
  for (int n = 2; fs::exists(candidate, ec) && n < 1000; ++n) candidate = base.parent_path() / (name + "-" + std::to_string(n));
  return candidate;
}

// Moves a foreign extension folder aside and carries the server-owned files (the secret,
// the port file, the adapters) over into a fresh target.
result<fs::path> back_up_foreign(const fs::path& target) {
  auto backup = backup_path_for(target);
  std::error_code ec;
  fs::rename(target, backup, ec);
  if (ec) return make_error(errc::io, "cannot move " + target.string() + " to " + backup.string() + ": " + ec.message());
  if (auto st = ensure_dir(target); !st) return st.err();
  for (const char* name : {"auth.json", "server.json"}) {
    auto content = read_file(backup / name, 64 * 1024);
    if (!content) continue;
    if (auto st = write_file_atomic(target / name, *content, std::string_view(name) == "auth.json" ? 0600 : 0644); !st)
      return st.err();
  }
  if (fs::is_directory(backup / "adapters", ec)) {
    fs::copy(backup / "adapters", target / "adapters", fs::copy_options::recursive, ec);
    if (ec) return make_error(errc::io, "cannot copy " + (backup / "adapters").string() + ": " + ec.message());
  }
  return backup;
}

}  // namespace

bool out_of_descriptors(const error& e) {
  // The file functions put strerror(errno) in their messages.
  for (int code : {EMFILE, ENFILE})
    if (e.message.find(std::strerror(code)) != std::string::npos) return true;
  return false;
}

extension_folder classify_extension_folder(const fs::path& source, const fs::path& target) {
  std::error_code ec;
  if (!fs::exists(target / "manifest.json", ec)) return extension_folder::empty;
  if (fs::exists(target / kStampFile, ec)) return extension_folder::ours;
  // Copies made before the stamp existed: our manifest carries a fixed `key`.
  auto ours = manifest_key(read_manifest(source));
  if (!ours.empty() && manifest_key(read_manifest(target)) == ours) return extension_folder::ours;
  return extension_folder::foreign;
}

std::string extension_folder_label(const fs::path& target) {
  auto manifest = read_manifest(target);
  if (!manifest) return "";
  const auto* name = json::get_string(*manifest, "name");
  const auto* version = json::get_string(*manifest, "version");
  std::string label = name ? std::string(std::string_view(*name).substr(0, 80)) : std::string("an extension");
  if (version) label += " " + std::string(std::string_view(*version).substr(0, 40));
  return label;
}

std::string installed_extension_hash(const fs::path& target) {
  auto text = read_file(target / kHashFile, 1024);
  if (!text) return "";
  std::string_view v = *text;
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.front()))) v.remove_prefix(1);
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.remove_suffix(1);
  if (v.empty() || v.size() > 128) return "";
  for (char c : v)
    if (!std::isalnum(static_cast<unsigned char>(c))) return "";
  return std::string(v);
}

std::string foreign_extension_notice(const fs::path& target, const std::string& label) {
  return target.string() + " holds another extension" + (label.empty() ? std::string() : " (" + label + ")") +
         ", installed by something other than opentabs; it was left unchanged. It works with this server, but "
         "browser_snapshot and WebMCP page tools need the opentabs extension: `opentabs extension install --force` "
         "replaces it (the folder is backed up first), then reload it in chrome://extensions";
}

fs::path extension_source_dir() {
  if (const char* env = std::getenv("OPENTABS_EXTENSION_SOURCE"); env && *env) return fs::path(env);
  std::error_code ec;
  // Installed: <prefix>/bin/opentabs next to <prefix>/share/opentabs/extension, wherever the
  // prefix was moved to.
  auto exe = platform::executable_path(ec);
  if (!ec) {
    auto share = exe.parent_path().parent_path() / "share" / "opentabs" / "extension";
    if (fs::exists(share / "manifest.json", ec)) return share;
  }
  // Development: the binary in a build directory uses the source tree it was built from.
  return fs::path(OPENTABS_SOURCE_DIR) / "extension";
}

namespace {

using file_digests = std::vector<std::pair<std::string, std::string>>;

// Copies every file of `source` that differs into `target` (counted in `report`), and
// returns each file's digest by its relative path for the bundle hash.
result<file_digests> copy_extension_files(const fs::path& source, const fs::path& target, install_report& report) {
  std::error_code ec;
  file_digests digests;
  for (auto it = fs::recursive_directory_iterator(source, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    auto rel = fs::relative(it->path(), source, ec);
    if (ec) break;
    if (skipped(rel)) {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    auto dest = target / rel;
    if (it->is_directory(ec)) {
      if (auto st = ensure_dir(dest); !st) return st.err();
      continue;
    }
    if (!it->is_regular_file(ec)) continue;
    auto content = read_file(it->path(), kMaxExtensionFile);
    if (!content) return content.err();
    digests.emplace_back(rel.generic_string(), sha256_hex(*content));
    auto existing = read_file(dest, kMaxExtensionFile);
    if (existing && *existing == *content) {
      ++report.unchanged;
      continue;
    }
    if (auto st = write_file_unsynced(dest, *content, 0644); !st) return st.err();
    ++report.copied;
  }
  if (ec) return make_error(errc::io, "cannot copy the extension from " + source.string() + ": " + ec.message());
  return digests;
}

// Writes `content` to `file` unless it already holds it (these run on every start); true
// when it wrote.
result<bool> write_if_changed(const fs::path& file, const std::string& content, std::size_t max_read) {
  auto current = read_file(file, max_read);
  if (current && *current == content) return false;
  if (auto st = write_file_unsynced(file, content, 0644); !st) return st.err();
  return true;
}

// The bundle hash, version and stamp files beside the copied extension; true when any was
// rewritten.
result<bool> write_marker_files(const fs::path& target, const std::string& extension_hash) {
  // The extension reads this file when it starts and compares it with the extensionHash of
  // sync.full: files updated under a running extension (opentabs upgraded) ask for a reload.
  auto hash = write_if_changed(target / kHashFile, extension_hash, 64);
  if (!hash) return hash.err();
  auto version = write_if_changed(target / ".opentabs-version", OPENTABS_VERSION, 64);
  if (!version) return version.err();
  auto stamp = write_if_changed(target / kStampFile, std::string("opentabs ") + OPENTABS_VERSION + "\n", 256);
  if (!stamp) return stamp.err();
  return *hash || *version || *stamp;
}

}  // namespace

result<install_report> install_extension(const fs::path& source, const fs::path& target, install_options options) {
  std::error_code ec;
  if (!fs::exists(source / "manifest.json", ec))
    return make_error(errc::not_found, "the extension files were not found in " + source.string() +
                                           " (set OPENTABS_EXTENSION_SOURCE to the extension directory)");
  install_report report;
  report.found = classify_extension_folder(source, target);
  if (report.found == extension_folder::foreign) {
    report.foreign_label = extension_folder_label(target);
    if (!options.force) return report;  // never replace what we did not install
    auto backup = back_up_foreign(target);
    if (!backup) return backup.err();
    report.backup = *backup;
  }
  report.installed = true;
  report.first_install = !fs::exists(target / "manifest.json", ec);
  if (auto st = ensure_dir(target); !st) return st.err();
  auto digests = copy_extension_files(source, target, report);
  if (!digests) return digests.err();
  report.extension_hash = bundle_hash(std::move(*digests));
  auto markers = write_marker_files(target, report.extension_hash);
  if (!markers) return markers.err();
  // The files are written without waiting for the disk (a cold first start wrote ~50 of
  // them, and an fsync each was most of its time); one flush covers them all.  A power loss
  // before it can leave a file stale or empty: the next start compares every file with the
  // source and rewrites it.
  report.wrote = report.copied > 0 || *markers;
  if (report.wrote && !options.defer_sync)
    if (auto st = sync_filesystem(target); !st) return st.err();
  return report;
}

}  // namespace opentabs::app
