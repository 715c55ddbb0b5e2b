// Tests for config_lock (the flock every config.json writer holds) and the store's use of
// it: exclusion between holders, release on destruction, a bounded wait, and removal of
// leftover temp files.
#include "config/config_lock.hpp"

#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config/config_edits.hpp"
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

TEST_CASE("updates from several processes at once all land") {
  scratch_dir dir;
  const auto json_path = dir / "config.json";
  {
    config_store store(json_path, dir.path());
    REQUIRE(store.load().ok());
  }
  constexpr int kProcesses = 6;
  constexpr int kEdits = 15;
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      config_store store(json_path, dir.path());
      int failures = 0;
      for (int i = 0; i < kEdits; ++i) {
        auto r = store.update([&](json::object& root) -> result<bool> {
          return set_plugin_setting(root, "p" + std::to_string(p), "k" + std::to_string(i), json::value(i));
        });
        if (!r) ++failures;
      }
      ::_exit(failures == 0 ? 0 : 1);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
  }
  config_store store(json_path, dir.path());
  auto loaded = store.load();
  REQUIRE(loaded.ok());
  int present = 0;
  for (int p = 0; p < kProcesses; ++p)
    for (int i = 0; i < kEdits; ++i) {
      auto it = loaded->cfg.settings.find("p" + std::to_string(p));
      if (it != loaded->cfg.settings.end() && it->second.contains("k" + std::to_string(i))) ++present;
    }
  CHECK(present == kProcesses * kEdits);
}
