// Tests for file_handle (a symbolic link is refused, appends go to the end, reads at an
// offset, the facts of a file and of a deleted one, exclusive locks) and directory_handle
// (new files, renames that do or do not replace, subfolders that are links).
#include "platform/file_handle.hpp"

#include <doctest/doctest.h>

#include "platform/directory_handle.hpp"
#include "platform/durable_file.hpp"
#include "platform/os.hpp"
#include "temp_folder.hpp"

using namespace opentabs::platform;
namespace fs = std::filesystem;

TEST_CASE("appending and reading at an offset through a file_handle") {
  testing::temp_folder d;
  auto f = d.path / "audit.log";
  std::error_code ec;
  {
    auto out = file_handle::open(f, file_handle::access::append, 0600, ec);
    REQUIRE_FALSE(ec);
    CHECK(out.write("one\n", ec) == 4);
    CHECK(out.write("two\n", ec) == 4);
    file_facts facts;
    REQUIRE_FALSE(out.facts(facts));
    CHECK(facts.kind == file_kind::regular);
    CHECK(facts.size == 8);
    CHECK(facts.links == 1);
    CHECK(facts.modified_ns > 0);
  }
  auto in = file_handle::open(f, file_handle::access::read, 0, ec);
  REQUIRE_FALSE(ec);
  char buf[8] = {};
  CHECK(in.read_at(4, buf, sizeof buf) == 4);
  CHECK(std::string(buf, 4) == "two\n");
  CHECK(in.read_some(buf, 3) == 3);
  CHECK(std::string(buf, 3) == "one");
  file_facts by_handle, by_path;
  REQUIRE_FALSE(in.facts(by_handle));
  REQUIRE_FALSE(facts_of(f, by_path, true));
  CHECK(by_handle.inode == by_path.inode);
  CHECK(by_handle.device == by_path.device);
  auto missing = file_handle::open(d.path / "absent", file_handle::access::read, 0, ec);
  CHECK(ec == std::errc::no_such_file_or_directory);
  CHECK_FALSE(missing.is_open());
}

TEST_CASE("a symbolic link is never opened through, and a deleted file has no links") {
  testing::temp_folder d;
  auto target = d.path / "target";
  REQUIRE_FALSE(replace_file(target, "x", 0600, durability::next_flush));
  std::error_code ec;
  fs::create_symlink(target, d.path / "link", ec);
  if (!ec) {
    auto via_link = file_handle::open(d.path / "link", file_handle::access::append, 0600, ec);
    CHECK(ec == std::errc::too_many_symbolic_link_levels);
    file_facts facts;
    REQUIRE_FALSE(facts_of(d.path / "link", facts, false));
    CHECK(facts.kind == file_kind::symlink);
  }
  auto held = file_handle::open(target, file_handle::access::append, 0600, ec);
  REQUIRE_FALSE(ec);
  if (current_os() != os::windows) {  // Windows refuses to delete an open file
    fs::remove(target);
    file_facts facts;
    REQUIRE_FALSE(held.facts(facts));
    CHECK(facts.links == 0);
  }
}

TEST_CASE("an exclusive lock is refused to a second handle while the first holds it") {
  testing::temp_folder d;
  auto f = d.path / "config.json.lock";
  REQUIRE_FALSE(replace_file(f, "", 0600, durability::next_flush));
  std::error_code ec;
  auto first = file_handle::open(f, file_handle::access::read, 0, ec);
  auto second = file_handle::open(f, file_handle::access::read, 0, ec);
  REQUIRE(first.is_open());
  REQUIRE(second.is_open());
  CHECK(first.try_lock_exclusive());
  CHECK_FALSE(second.try_lock_exclusive());
  first.close();
  CHECK(second.try_lock_exclusive());
}

TEST_CASE("directory_handle creates, renames with and without replacing, and refuses linked subfolders") {
  testing::temp_folder d;
  std::error_code ec;
  auto dir = directory_handle::open(d.path, ec);
  REQUIRE_FALSE(ec);
  auto sub = dir.open_subdirectory("out", 0700, ec);
  REQUIRE_FALSE(ec);
  CHECK(fs::is_directory(d.path / "out"));
  {
    auto f = sub.create_new_file("a.tmp", 0600, ec);
    REQUIRE_FALSE(ec);
    f.write("new", ec);
    auto again = sub.create_new_file("a.tmp", 0600, ec);
    CHECK(ec == std::errc::file_exists);
  }
  REQUIRE_FALSE(sub.rename("a.tmp", "a.txt", false));
  REQUIRE_FALSE(replace_file(d.path / "out" / "b.tmp", "newer", 0600, durability::next_flush));
  CHECK(sub.rename("b.tmp", "a.txt", false) == std::errc::file_exists);
  REQUIRE_FALSE(sub.rename("b.tmp", "a.txt", true));
  std::string text;
  REQUIRE_FALSE(read_file(d.path / "out" / "a.txt", 100, text));
  CHECK(text == "newer");
  CHECK_FALSE(sub.flush());
  REQUIRE_FALSE(sub.remove("a.txt"));
  CHECK_FALSE(fs::exists(d.path / "out" / "a.txt"));
  fs::create_directory_symlink(d.path / "out", d.path / "linked", ec);
  if (!ec) {
    auto linked = dir.open_subdirectory("linked", 0700, ec);
    CHECK(ec == std::errc::too_many_symbolic_link_levels);
  }
  REQUIRE_FALSE(replace_file(d.path / "plain", "x", 0600, durability::next_flush));
  auto not_dir = dir.open_subdirectory("plain", 0700, ec);
  CHECK(ec == std::errc::not_a_directory);
}
