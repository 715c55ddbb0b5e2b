// install_extension: the copy of the unpacked extension and its bundle hash (.extension-hash),
// which must change exactly when the extension's own files change.
#include "app/extension_install.hpp"

#include <doctest/doctest.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <regex>

#include "test/server/config/scratch_dir.hpp"

using opentabs::app::install_extension;
using opentabs::test::read_text;
using opentabs::test::scratch_dir;
using opentabs::test::write_text;

namespace {

void make_source(const std::filesystem::path& src) {
  std::filesystem::create_directories(src / "src");
  write_text(src / "manifest.json", R"({"manifest_version":3,"name":"t","version":"1"})");
  write_text(src / "src" / "background.js", "console.log('v1');\n");
  write_text(src / "README.md", "not copied\n");
}

}  // namespace

TEST_CASE("the bundle hash is 16 hex digits, recorded in .extension-hash, stable across installs") {
  scratch_dir tmp;
  make_source(tmp / "src");
  auto first = install_extension(tmp / "src", tmp / "target");
  REQUIRE(first);
  CHECK(first->first_install);
  CHECK(std::regex_match(first->extension_hash, std::regex("[0-9a-f]{16}")));
  CHECK(read_text(tmp / "target" / ".extension-hash") == first->extension_hash);
  CHECK_FALSE(std::filesystem::exists(tmp / "target" / "README.md"));

  // Files the server owns inside the target never count.
  write_text(tmp / "target" / "server.json", R"({"port":1234})");
  write_text(tmp / "target" / "auth.json", R"({"secret":"x"})");
  std::filesystem::create_directories(tmp / "target" / "adapters");
  write_text(tmp / "target" / "adapters" / "p-1234abcd.js", "adapter");
  auto again = install_extension(tmp / "src", tmp / "target");
  REQUIRE(again);
  CHECK_FALSE(again->first_install);
  CHECK(again->copied == 0);
  CHECK(again->extension_hash == first->extension_hash);

  // The same bundle installed elsewhere has the same hash.
  auto elsewhere = install_extension(tmp / "src", tmp / "other");
  REQUIRE(elsewhere);
  CHECK(elsewhere->extension_hash == first->extension_hash);
}

TEST_CASE("a changed, added or renamed extension file changes the bundle hash") {
  scratch_dir tmp;
  make_source(tmp / "src");
  auto base = install_extension(tmp / "src", tmp / "target");
  REQUIRE(base);
  write_text(tmp / "src" / "src" / "background.js", "console.log('v2');\n");
  auto changed = install_extension(tmp / "src", tmp / "target");
  REQUIRE(changed);
  CHECK(changed->copied == 1);
  CHECK(changed->extension_hash != base->extension_hash);
  CHECK(read_text(tmp / "target" / ".extension-hash") == changed->extension_hash);

  std::filesystem::rename(tmp / "src" / "src" / "background.js", tmp / "src" / "src" / "worker.js");
  auto renamed = install_extension(tmp / "src", tmp / "target");
  REQUIRE(renamed);
  CHECK(renamed->extension_hash != changed->extension_hash);
}

TEST_CASE("classification: empty, ours by stamp or by manifest key, foreign otherwise") {
  using opentabs::app::classify_extension_folder;
  using opentabs::app::extension_folder;
  scratch_dir tmp;
  std::filesystem::create_directories(tmp / "src");
  write_text(tmp / "src" / "manifest.json", R"({"manifest_version":3,"name":"OpenTabs","version":"0.1.0","key":"OUR-KEY"})");
  CHECK(classify_extension_folder(tmp / "src", tmp / "none") == extension_folder::empty);
  std::filesystem::create_directories(tmp / "only-auth");
  write_text(tmp / "only-auth" / "auth.json", R"({"secret":"x"})");
  CHECK(classify_extension_folder(tmp / "src", tmp / "only-auth") == extension_folder::empty);

  auto installed = install_extension(tmp / "src", tmp / "stamped");
  REQUIRE(installed);
  CHECK(installed->installed);
  CHECK(read_text(tmp / "stamped" / ".opentabs-installed-by").starts_with("opentabs "));
  CHECK(classify_extension_folder(tmp / "src", tmp / "stamped") == extension_folder::ours);

  // A copy made before the stamp existed: recognised by our manifest key.
  std::filesystem::create_directories(tmp / "legacy");
  write_text(tmp / "legacy" / "manifest.json", R"({"name":"OpenTabs","version":"0.0.9","key":"OUR-KEY"})");
  CHECK(classify_extension_folder(tmp / "src", tmp / "legacy") == extension_folder::ours);

  std::filesystem::create_directories(tmp / "original");
  write_text(tmp / "original" / "manifest.json", R"({"name":"OpenTabs","version":"0.0.115"})");
  CHECK(classify_extension_folder(tmp / "src", tmp / "original") == extension_folder::foreign);
  CHECK(opentabs::app::extension_folder_label(tmp / "original") == "OpenTabs 0.0.115");
}

TEST_CASE("a foreign folder is left alone unless forced; forcing backs it up and carries the secret over") {
  using opentabs::app::install_options;
  scratch_dir tmp;
  make_source(tmp / "src");
  auto target = tmp / "extension";
  std::filesystem::create_directories(target / "adapters");
  write_text(target / "manifest.json", R"({"name":"OpenTabs","version":"0.0.115"})");
  write_text(target / ".extension-hash", "5e1f0a9b8c7d6e2f\n");
  write_text(target / "auth.json", R"({"secret":"kept"})");
  write_text(target / "adapters" / "p-12345678.js", "adapter");

  auto left = install_extension(tmp / "src", target);
  REQUIRE(left);
  CHECK_FALSE(left->installed);
  CHECK(left->found == opentabs::app::extension_folder::foreign);
  CHECK(left->foreign_label == "OpenTabs 0.0.115");
  CHECK(read_text(target / "manifest.json") == R"({"name":"OpenTabs","version":"0.0.115"})");
  CHECK_FALSE(std::filesystem::exists(target / ".opentabs-installed-by"));
  CHECK(opentabs::app::installed_extension_hash(target) == "5e1f0a9b8c7d6e2f");

  auto forced = install_extension(tmp / "src", target, install_options{true});
  REQUIRE(forced);
  CHECK(forced->installed);
  REQUIRE(forced->backup);
  CHECK(read_text(*forced->backup / "manifest.json") == R"({"name":"OpenTabs","version":"0.0.115"})");
  CHECK(read_text(target / "auth.json") == R"({"secret":"kept"})");
  CHECK(read_text(target / "adapters" / "p-12345678.js") == "adapter");
  CHECK(opentabs::app::installed_extension_hash(target) == forced->extension_hash);
  CHECK(opentabs::app::classify_extension_folder(tmp / "src", target) == opentabs::app::extension_folder::ours);
}

TEST_CASE("installed_extension_hash: trimmed, letters and digits only, else empty") {
  scratch_dir tmp;
  std::filesystem::create_directories(tmp / "e");
  CHECK(opentabs::app::installed_extension_hash(tmp / "e").empty());
  write_text(tmp / "e" / ".extension-hash", "  abc123\n");
  CHECK(opentabs::app::installed_extension_hash(tmp / "e") == "abc123");
  write_text(tmp / "e" / ".extension-hash", "abc 123");
  CHECK(opentabs::app::installed_extension_hash(tmp / "e").empty());
}

TEST_CASE("defer_sync: the report says whether anything was written (the caller owes the flush)") {
  scratch_dir tmp;
  make_source(tmp / "src");
  opentabs::app::install_options o;
  o.defer_sync = true;
  auto first = install_extension(tmp / "src", tmp / "target", o);
  REQUIRE(first);
  CHECK(first->wrote);
  CHECK(first->copied == 2);
  CHECK(read_text(tmp / "target" / ".extension-hash") == first->extension_hash);
  auto again = install_extension(tmp / "src", tmp / "target", o);
  REQUIRE(again);
  CHECK_FALSE(again->wrote);
  CHECK(again->unchanged == 2);
}

TEST_CASE("out_of_descriptors: only EMFILE and ENFILE failures are worth retrying") {
  using opentabs::app::out_of_descriptors;
  using opentabs::make_error;
  CHECK(out_of_descriptors(make_error(opentabs::errc::io, std::string("cannot open /x/a.js: ") + std::strerror(EMFILE))));
  CHECK(out_of_descriptors(make_error(opentabs::errc::io, std::string("cannot copy the extension: ") + std::strerror(ENFILE))));
  CHECK_FALSE(out_of_descriptors(make_error(opentabs::errc::io, std::string("cannot open /x/a.js: ") + std::strerror(EACCES))));
  CHECK_FALSE(out_of_descriptors(make_error(opentabs::errc::not_found, "the extension files were not found in /x")));
}
