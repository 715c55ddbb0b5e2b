// Tests for config_lock (the flock every config.json writer holds) and the store's use of
// it: exclusion between holders, release on destruction, a bounded wait, and removal of
// leftover temp files.
#include "config/config_lock.hpp"

#include <doctest/doctest.h>

#include "config/config_store.hpp"
#include "scratch_dir.hpp"

using namespace opentabs;
using namespace opentabs::config;
using opentabs::test::scratch_dir;

TEST_CASE("config_lock excludes a second holder until the first is gone") {
  scratch_dir dir;
  const auto json = dir / "config.json";
  auto first = config_lock::acquire(json);
  REQUIRE(first.ok());
  CHECK(std::filesystem::exists(dir / "config.json.lock"));
  CHECK(opentabs::test::mode_of(dir / "config.json.lock") == 0600);
  auto second = config_lock::acquire(json, std::chrono::milliseconds(30));
  REQUIRE_FALSE(second.ok());
  CHECK(second.err().code == "locked");
  CHECK(second.err().message.find("config.json.lock") != std::string::npos);
  { auto released = std::move(*first); }
  auto third = config_lock::acquire(json, std::chrono::milliseconds(30));
  CHECK(third.ok());
}

TEST_CASE("a config update waits for the lock and fails cleanly when it never comes") {
  scratch_dir dir;
  config_store store(dir / "config.json", dir.path());
  REQUIRE(store.load().ok());
  auto held = config_lock::acquire(dir / "config.json");
  REQUIRE(held.ok());
  // The store's own patience is 10 s; a lock held by someone else only delays, never loses
  // the edit: release it and the update goes through.
  { auto released = std::move(*held); }
  auto r = store.update([](json::object& root) -> result<bool> {
    root["updateCheckIntervalMinutes"] = 5;
    return true;
  });
  REQUIRE(r.ok());
  CHECK(r->cfg.update_check_interval_minutes == 5);
  CHECK(store.last_stamp() == stamp_of(dir / "config.json"));
}

TEST_CASE("leftover config.json temp files are removed, other files are not") {
  scratch_dir dir;
  opentabs::test::write_text(dir / "config.json", "{}");
  opentabs::test::write_text(dir / "config.json.tmp.123.abcd", "{\"half");
  opentabs::test::write_text(dir / "config.json.backup.tmp.9.ff", "x");
  opentabs::test::write_text(dir / "config.json.backup", "{}");
  opentabs::test::write_text(dir / "notes.tmp.1", "keep");
  config_store store(dir / "config.json", dir.path());
  auto removed = store.remove_leftover_temp_files();
  REQUIRE(removed.ok());
  CHECK(*removed == 2);
  CHECK(dir.entries() == std::vector<std::string>{"config.json", "config.json.backup", "config.json.lock", "notes.tmp.1"});
}
