// install_extension: the copy of the unpacked extension and its bundle hash (.extension-hash),
// which must change exactly when the extension's own files change.
#include "app/extension_install.hpp"

#include <doctest/doctest.h>

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
