// Tests for config_lock (the lock directory every config.json writer holds, the original
// OpenTabs tools included) and the store's use of it: exclusion between holders, pid.txt,
// release on destruction, a bounded wait, stale directories, the legacy flock file, edits
// kept while another process holds the lock, and removal of leftover temp files.
#include "config/config_lock.hpp"

#include <doctest/doctest.h>
#if !defined(_WIN32)
// fork, flock and utimensat: the cases that need another process or an old mtime run on
// POSIX; Windows shares the lock's logic, and platform's own suite tests its pid checks.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#include <ctime>

#include "config/config_edits.hpp"
#include "config/config_failure.hpp"
#include "config/config_store.hpp"
#include "scratch_dir.hpp"
#include "platform/process_identity.hpp"
#include "util/files.hpp"

using namespace opentabs;
using namespace opentabs::config;
using opentabs::test::scratch_dir;

#if !defined(_WIN32)
namespace {

// A lock directory as another process leaves it: pid.txt with `pid`, made `age` ago.
void plant_lock(const std::filesystem::path& dir, long pid, std::chrono::seconds age) {
  std::filesystem::create_directory(dir);
  opentabs::test::write_text(dir / "pid.txt", std::to_string(pid));
  const std::time_t then = std::time(nullptr) - static_cast<std::time_t>(age.count());
  struct timespec times[2] = {{then, 0}, {then, 0}};
  REQUIRE(::utimensat(AT_FDCWD, dir.c_str(), times, 0) == 0);
}

// A pid that is certainly not running: a child that has exited and been reaped.
long dead_pid() {
  pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return pid;
}

}  // namespace
#endif

TEST_CASE("config_lock is a directory holding the holder's pid, excluding a second holder until released") {
  scratch_dir dir;
  const auto json = dir / "config.json";
  auto first = config_lock::acquire(json);
  REQUIRE(first.ok());
  CHECK(std::filesystem::is_directory(dir / "config.json.lock"));
  CHECK(opentabs::test::read_text(dir / "config.json.lock" / "pid.txt") == std::to_string(platform::current_process_id()));
  auto second = config_lock::acquire(json, std::chrono::milliseconds(120));
  REQUIRE_FALSE(second.ok());
  CHECK(second.err().is(config::config_failure::locked));
  CHECK(second.err().message.find("config.json.lock") != std::string::npos);
  CHECK(second.err().message.find(std::to_string(platform::current_process_id())) != std::string::npos);
  { auto released = std::move(*first); }
  CHECK_FALSE(std::filesystem::exists(dir / "config.json.lock"));
  auto third = config_lock::try_acquire(json);
  CHECK(third.ok());
}

#if !defined(_WIN32)
TEST_CASE("a lock directory of a live process is respected however old it is") {
  scratch_dir dir;
  plant_lock(dir / "config.json.lock", ::getppid(), std::chrono::hours(1));
  auto l = config_lock::try_acquire(dir / "config.json");
  REQUIRE_FALSE(l.ok());
  CHECK(l.err().is(config::config_failure::locked));
  CHECK(std::filesystem::exists(dir / "config.json.lock" / "pid.txt"));
}

TEST_CASE("a lock directory whose pid.txt names a dead process is taken over at once") {
  // A SIGKILLed server or a crashed plugin build never releases; waiting five minutes (the
  // original's rule, which still covers a lock without pid.txt) would stall every writer.
  scratch_dir dir;
  plant_lock(dir / "config.json.lock", dead_pid(), std::chrono::seconds(1));
  auto l = config_lock::try_acquire(dir / "config.json");
  REQUIRE(l.ok());
  CHECK(opentabs::test::read_text(dir / "config.json.lock" / "pid.txt") == std::to_string(platform::current_process_id()));
  CHECK_FALSE(std::filesystem::exists(dir / ("config.json.lock.stale-" + std::to_string(platform::current_process_id()))));
}

TEST_CASE("a lock directory without pid.txt is held while fresh, stale once older than the grace") {
  // A writer killed between its mkdir and its pid.txt (a SIGKILLed server mid-write) leaves
  // such a directory; a live writer names itself right after its mkdir.
  scratch_dir dir;
  std::filesystem::create_directory(dir / "config.json.lock");
  CHECK_FALSE(config_lock::try_acquire(dir / "config.json").ok());
  const std::time_t then = std::time(nullptr) - 3;
  struct timespec times[2] = {{then, 0}, {then, 0}};
  REQUIRE(::utimensat(AT_FDCWD, (dir / "config.json.lock").c_str(), times, 0) == 0);
  CHECK(config_lock::try_acquire(dir / "config.json").ok());
}

TEST_CASE("an older opentabs' lock file is replaced unless its flock is held") {
  scratch_dir dir;
  opentabs::test::write_text(dir / "config.json.lock", "");
  int fd = ::open((dir / "config.json.lock").c_str(), O_RDONLY);
  REQUIRE(fd >= 0);
  REQUIRE(::flock(fd, LOCK_EX) == 0);
  pid_t child = ::fork();
  if (child == 0) ::_exit(config_lock::try_acquire(dir / "config.json").ok() ? 1 : 0);  // flock is per open file
  int status = 0;
  ::waitpid(child, &status, 0);
  CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
  ::close(fd);
  auto l = config_lock::try_acquire(dir / "config.json");
  REQUIRE(l.ok());
  CHECK(std::filesystem::is_directory(dir / "config.json.lock"));
}

#endif

TEST_CASE("a config update waits for the lock and goes through once it is released") {
  scratch_dir dir;
  config_store store(dir / "config.json", dir.path());
  REQUIRE(store.load().ok());
  auto held = config_lock::acquire(dir / "config.json");
  REQUIRE(held.ok());
  store.set_lock_patience(std::chrono::milliseconds(0));
  auto refused = store.update([](json::object& root) -> result<bool> {
    root["updateCheckIntervalMinutes"] = 7;
    return true;
  });
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.err().is(config::config_failure::locked));
  { auto released = std::move(*held); }
  auto r = store.update([](json::object& root) -> result<bool> {
    root["updateCheckIntervalMinutes"] = 5;
    return true;
  });
  REQUIRE(r.ok());
  CHECK(r->cfg.update_check_interval_minutes == 5);
  CHECK(store.last_stamp() == stamp_of(dir / "config.json"));
}

TEST_CASE("with defer_when_locked an edit under someone else's lock is seen at once and written after") {
  scratch_dir dir;
  const auto json_path = dir / "config.json";
  config_store store(json_path, dir.path());
  REQUIRE(store.load().ok());
  int deferred = 0;
  store.set_lock_patience(std::chrono::milliseconds(0));
  store.defer_when_locked([&] { ++deferred; });
  auto held = config_lock::acquire(json_path);
  REQUIRE(held.ok());
  auto r = store.update([](json::object& root) -> result<bool> { return set_plugin_setting(root, "server", "k", json::value(1)); });
  REQUIRE(r.ok());
  CHECK(deferred == 1);
  CHECK(store.has_pending());
  CHECK(r->cfg.settings.at("server").contains("k"));
  // The holder writes its own change meanwhile, as the original plugin build does.
  {
    config_store other(json_path, dir.path());
    other.set_lock_patience(std::chrono::milliseconds(0));
    auto in_file = other.load();
    REQUIRE(in_file.ok());
    CHECK_FALSE(in_file->cfg.settings.contains("server"));  // not written under a held lock
    json::object root = in_file->raw;
    REQUIRE(add_to_string_list(root, "localPlugins", "/plugins/built"));
    REQUIRE(write_file_atomic(json_path, format_config_text(root), 0600).ok());
  }
  auto reloaded = store.load();  // lock still held: the pending edit applies on top in memory
  REQUIRE(reloaded.ok());
  CHECK(reloaded->cfg.settings.at("server").contains("k"));
  CHECK(reloaded->cfg.local_plugins == std::vector<std::string>{"/plugins/built"});
  CHECK(store.write_pending().err().is(config::config_failure::locked));
  { auto released = std::move(*held); }
  auto written = store.write_pending();
  REQUIRE(written.ok());
  CHECK_FALSE(store.has_pending());
  config_store fresh(json_path, dir.path());
  auto on_disk = fresh.load();
  REQUIRE(on_disk.ok());
  CHECK(on_disk->cfg.settings.at("server").contains("k"));
  CHECK(on_disk->cfg.local_plugins == std::vector<std::string>{"/plugins/built"});
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
  CHECK(dir.entries() == std::vector<std::string>{"config.json", "config.json.backup", "notes.tmp.1"});
}

#if !defined(_WIN32)
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
#endif
