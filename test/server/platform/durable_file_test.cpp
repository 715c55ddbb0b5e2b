// Tests for replace_file (whole replacement, mode, no temp file left, failures reported),
// append_file, the bounded read_file, and flush_filesystem.
#include "platform/durable_file.hpp"

#include <doctest/doctest.h>

#include "platform/file_access.hpp"
#include "platform/os.hpp"
#include "temp_folder.hpp"

using namespace opentabs::platform;
namespace fs = std::filesystem;

namespace {
std::size_t entries_in(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}
}  // namespace

TEST_CASE("replace_file replaces the whole file, in both durabilities, and leaves no temp file") {
  testing::temp_folder d;
  auto f = d.path / "config.json";
  for (auto when : {durability::on_return, durability::next_flush}) {
    REQUIRE_FALSE(replace_file(f, "first, and longer", 0600, when));
    REQUIRE_FALSE(replace_file(f, "second", 0600, when));
    std::string text;
    REQUIRE_FALSE(read_file(f, 100, text));
    CHECK(text == "second");
    CHECK(entries_in(d.path) == 1);
  }
  if (current_os() != os::windows) {
    std::error_code ec;
    CHECK(file_mode(f, ec) == 0600);
    REQUIRE_FALSE(replace_file(f, "x", 0644, durability::on_return));
    CHECK(file_mode(f, ec) == 0644);
  }
}

TEST_CASE("replace_file into a missing folder fails and creates nothing") {
  testing::temp_folder d;
  auto ec = replace_file(d.path / "missing" / "x", "y", 0600, durability::on_return);
  CHECK(ec == std::errc::no_such_file_or_directory);
  CHECK(entries_in(d.path) == 0);
}

TEST_CASE("read_file is bounded and tells a missing file apart") {
  testing::temp_folder d;
  auto f = d.path / "log";
  REQUIRE_FALSE(append_file(f, "one\n", 0600));
  REQUIRE_FALSE(append_file(f, "two\n", 0600));
  std::string text;
  REQUIRE_FALSE(read_file(f, 8, text));
  CHECK(text == "one\ntwo\n");
  CHECK(read_file(f, 7, text) == std::errc::file_too_large);
  CHECK(text.empty());
  CHECK(read_file(d.path / "absent", 10, text) == std::errc::no_such_file_or_directory);
}

TEST_CASE("flush_filesystem flushes a folder's file system and refuses a missing folder") {
  testing::temp_folder d;
  REQUIRE_FALSE(replace_file(d.path / "a", "b", 0600, durability::next_flush));
  CHECK_FALSE(flush_filesystem(d.path));
  CHECK(flush_filesystem(d.path / "missing"));
}

TEST_CASE("create_directories_with_mode creates parents and sets the mode") {
  testing::temp_folder d;
  auto dir = d.path / "a" / "b";
  REQUIRE_FALSE(create_directories_with_mode(dir, 0700));
  CHECK(fs::is_directory(dir));
  if (current_os() != os::windows) {
    std::error_code ec;
    CHECK(file_mode(dir, ec) == 0700);
    CHECK_FALSE(is_executable(d.path / "a" / "missing"));
    REQUIRE_FALSE(replace_file(d.path / "tool", "#!/bin/sh\n", 0700, durability::next_flush));
    CHECK(is_executable(d.path / "tool"));
    REQUIRE_FALSE(set_mode(d.path / "tool", 0600));
    CHECK_FALSE(is_executable(d.path / "tool"));
  }
}
