// The audit log: the 500-entry ring, queries, the /health summary, persistence across
// restarts, rotation, torn lines after a crash, and disks that refuse writes.
#include <doctest/doctest.h>

#include "audit/audit_log.hpp"
#include "test/server/config/scratch_dir.hpp"
#include "test/support/test_os.hpp"
#include "util/clock.hpp"

using namespace opentabs;
using namespace opentabs::audit;
using opentabs::test::mode_of;
using opentabs::test::read_text;
using opentabs::test::scratch_dir;
using opentabs::test::write_text;

namespace {

constexpr std::int64_t kT0 = 1'790'000'000'000;

std::string iso(std::int64_t ms) {
  return iso8601_utc(std::chrono::system_clock::time_point(std::chrono::milliseconds(ms)));
}

audit_entry entry(int i, bool success = true, std::int64_t duration = 10, std::string plugin = "slack") {
  audit_entry e{iso(kT0 + i), plugin + "_tool_" + std::to_string(i), plugin, success, duration, std::nullopt, std::nullopt};
  if (!success) e.error = audit_error{"UNKNOWN", "failure " + std::to_string(i), std::nullopt};
  return e;
}

audit_query newest(std::size_t limit) {
  audit_query q;
  q.limit = limit;
  return q;
}

std::size_t line_count(const std::filesystem::path& p) {
  auto text = read_text(p);
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace

TEST_CASE("the in-memory ring keeps the newest 500") {
  audit_log log({});
  for (int i = 0; i < 510; ++i) REQUIRE(log.append(entry(i)).ok());
  CHECK(log.size() == 500);
  auto all = log.query(newest(500));
  REQUIRE(all.size() == 500);
  CHECK(all.front().tool == "slack_tool_509");
  CHECK(all.back().tool == "slack_tool_10");
}

TEST_CASE("queries: newest first, limit and filters") {
  audit_log log({});
  log.append(entry(1, true, 10, "slack"));
  log.append(entry(2, false, 20, "browser"));
  log.append(entry(3, true, 30, "slack"));
  log.append(entry(4, false, 40, "slack"));
  auto two = log.query(newest(2));
  REQUIRE(two.size() == 2);
  CHECK(two[0].tool == "slack_tool_4");
  CHECK(two[1].tool == "slack_tool_3");

  auto q = *parse_audit_query("50", "slack", std::nullopt, "false");
  auto failed_slack = log.query(q);
  REQUIRE(failed_slack.size() == 1);
  CHECK(failed_slack[0].tool == "slack_tool_4");
  CHECK(failed_slack[0].error->message == "failure 4");

  auto by_tool = log.query(*parse_audit_query(std::nullopt, std::nullopt, "browser_tool_2", std::nullopt));
  REQUIRE(by_tool.size() == 1);
  CHECK(by_tool[0].plugin == "browser");
}

TEST_CASE("summary: totals, last 24 hours and the average to one decimal") {
  audit_log log({});
  const std::int64_t now = kT0 + 100LL * 3'600'000;
  auto at = [&](std::int64_t ms_before_now, bool success, std::int64_t duration) {
    audit_entry e{iso(now - ms_before_now), "slack_x", "slack", success, duration, std::nullopt, std::nullopt};
    if (!success) e.error = audit_error{"E", "m", std::nullopt};
    log.append(e);
  };
  at(30LL * 3'600'000, true, 1);   // older than a day
  at(25LL * 3'600'000, false, 2);  // older than a day
  at(23LL * 3'600'000, true, 2);
  at(60'000, false, 2);
  at(0, true, 3);
  auto s = log.summary(now);
  CHECK(s.all.total == 5);
  CHECK(s.all.success == 3);
  CHECK(s.all.failure == 2);
  CHECK(s.last24h.total == 3);
  CHECK(s.last24h.success == 2);
  CHECK(s.last24h.failure == 1);
  CHECK(s.avg_duration_ms == doctest::Approx(2.0));  // (1+2+2+2+3)/5
  CHECK(json::dump(s.to_json()) ==
        R"({"totalInvocations":5,"successCount":3,"failureCount":2,"last24h":{"total":3,"success":2,"failure":1},"avgDurationMs":2})");

  at(0, true, 4);  // (1+2+2+2+3+4)/6 = 2.333... → 2.3
  CHECK(log.summary(now).avg_duration_ms == doctest::Approx(2.3));
  auto j = log.summary(now).to_json();
  CHECK(*json::get_number(j, "avgDurationMs") == doctest::Approx(2.3));

  audit_log empty({});
  CHECK(json::dump(empty.summary(now).to_json()) ==
        R"({"totalInvocations":0,"successCount":0,"failureCount":0,"last24h":{"total":0,"success":0,"failure":0},"avgDurationMs":0})");
}

TEST_CASE("entries are written as NDJSON (0600) and survive re-construction") {
  scratch_dir tmp;
  auto file = tmp / "audit.log";
  {
    audit_log log(persisted_to(file));
    CHECK(log.load_report().loaded == 0);
    for (int i = 0; i < 3; ++i) REQUIRE(log.append(entry(i, i != 1)).ok());
  }
  CHECK(line_count(file) == 3);
  CHECK_POSIX_MODE(mode_of(file) == 0600);
  CHECK(read_text(file).substr(0, read_text(file).find('\n') + 1) == to_ndjson_line(entry(0)));

  audit_log restarted(persisted_to(file));
  CHECK(restarted.load_report().loaded == 3);
  CHECK(restarted.load_report().skipped_lines == 0);
  auto back = restarted.query(newest(50));
  REQUIRE(back.size() == 3);
  CHECK(back[0].tool == "slack_tool_2");
  CHECK_FALSE(back[1].success);
  CHECK(back[1].error->message == "failure 1");
  CHECK(restarted.summary(kT0).all.failure == 1);
}

TEST_CASE("start-up loads the newest 500 from audit.log.1 + audit.log") {
  scratch_dir tmp;
  std::string rotated, current;
  for (int i = 0; i < 400; ++i) rotated += to_ndjson_line(entry(i));
  for (int i = 400; i < 700; ++i) current += to_ndjson_line(entry(i));
  write_text(tmp / "audit.log.1", rotated);
  write_text(tmp / "audit.log", current);
  audit_log log(persisted_to(tmp / "audit.log"));
  CHECK(log.load_report().loaded == 500);
  CHECK(log.size() == 500);
  auto all = log.query(newest(500));
  CHECK(all.front().tool == "slack_tool_699");
  CHECK(all.back().tool == "slack_tool_200");
}

TEST_CASE("rotation with a small threshold: checked on the first write and every N writes") {
  scratch_dir tmp;
  auto file = tmp / "audit.log";
  auto rotated = tmp / "audit.log.1";
  auto line_size = to_ndjson_line(entry(0)).size();
  auto opts = persisted_to(file);
  opts.rotate_at_bytes = line_size * 4;  // rotate once at least four lines are in the file
  opts.rotation_check_every = 3;         // checks before appends 1, 4, 7, 10, ...
  audit_log log(opts);
  for (int i = 0; i < 9; ++i) REQUIRE(log.append(entry(i)).ok());
  // Checks before appends 1 (no file), 4 (3 lines) and 7 (6 lines → rotate).
  CHECK(line_count(rotated) == 6);
  CHECK(line_count(file) == 3);
  for (int i = 9; i < 12; ++i) REQUIRE(log.append(entry(i)).ok());
  // Check before append 10 (3 lines: no rotation); append 13 would rotate next.
  CHECK(line_count(file) == 6);
  REQUIRE(log.append(entry(12)).ok());
  CHECK(line_count(rotated) == 6);  // the old audit.log.1 (entries 0-5) was replaced
  CHECK(read_text(rotated).find("slack_tool_6\"") != std::string::npos);
  CHECK(read_text(rotated).find("slack_tool_0\"") == std::string::npos);
  CHECK(line_count(file) == 1);
  CHECK_POSIX_MODE(mode_of(file) == 0600);
  CHECK(log.disk_failures() == 0);
  CHECK(tmp.entries() == std::vector<std::string>{"audit.log", "audit.log.1"});

  // A restart sees what the two files hold: entries 6..12.
  audit_log restarted(persisted_to(file));
  auto back = restarted.query(newest(500));
  REQUIRE(back.size() == 7);
  CHECK(back.front().tool == "slack_tool_12");
  CHECK(back.back().tool == "slack_tool_6");
}

TEST_CASE("with the default interval a big existing audit.log rotates on the first write") {
  scratch_dir tmp;
  auto file = tmp / "audit.log";
  std::string old;
  for (int i = 0; i < 10; ++i) old += to_ndjson_line(entry(i));
  write_text(file, old);
  auto opts = persisted_to(file);
  opts.rotate_at_bytes = old.size();  // exactly at the threshold counts ("size ≥ threshold")
  audit_log log(opts);
  CHECK(log.load_report().loaded == 10);
  REQUIRE(log.append(entry(10)).ok());
  CHECK(read_text(tmp / "audit.log.1") == old);
  CHECK(read_text(file) == to_ndjson_line(entry(10)));
  // The next 99 writes do not check again, even though the file passes the threshold.
  for (int i = 11; i < 40; ++i) REQUIRE(log.append(entry(i)).ok());
  CHECK(line_count(file) == 30);
  CHECK(read_text(tmp / "audit.log.1") == old);
}

TEST_CASE("a torn last line (SIGKILL mid-write) is skipped and the next entry starts a fresh line") {
  scratch_dir tmp;
  auto file = tmp / "audit.log";
  std::string good = to_ndjson_line(entry(0)) + to_ndjson_line(entry(1)) + to_ndjson_line(entry(2));
  std::string torn = to_ndjson_line(entry(3)).substr(0, 40);
  write_text(file, good + torn);
  {
    audit_log log(persisted_to(file));
    CHECK(log.load_report().loaded == 3);
    CHECK(log.load_report().skipped_lines == 1);
    REQUIRE(log.load_report().warnings.size() == 1);
    CHECK(log.load_report().warnings[0].find("incomplete last line 4") != std::string::npos);
    REQUIRE(log.append(entry(4)).ok());
    REQUIRE(log.append(entry(5)).ok());
  }
  CHECK(read_text(file) == good + torn + "\n" + to_ndjson_line(entry(4)) + to_ndjson_line(entry(5)));
  audit_log restarted(persisted_to(file));
  CHECK(restarted.load_report().loaded == 5);
  CHECK(restarted.load_report().skipped_lines == 1);
  auto back = restarted.query(newest(50));
  CHECK(back.front().tool == "slack_tool_5");
  CHECK(back[1].tool == "slack_tool_4");
  CHECK(back[2].tool == "slack_tool_2");
}

TEST_CASE("a directory that cannot be written: entries stay in memory, failures are counted, nothing throws") {
  scratch_dir tmp;
  // The config directory vanished under the running server.
  audit_log log(persisted_to(tmp / "gone" / "audit.log"));
  auto first = log.append(entry(1, false));
  REQUIRE_FALSE(first.ok());
  CHECK(first.err().is(errc::io));
  CHECK(first.err().message.find("kept in memory only") != std::string::npos);
  CHECK_FALSE(log.append(entry(2)).ok());
  CHECK(log.disk_failures() == 2);
  CHECK(log.last_disk_error().find((tmp / "gone" / "audit.log").string()) != std::string::npos);
  if (!opentabs::testing::on_windows)  // Windows words it "The system cannot find the path specified"
    CHECK(log.last_disk_error().find("No such file or directory") != std::string::npos);
  CHECK(log.size() == 2);
  CHECK(log.query(newest(5)).front().tool == "slack_tool_2");
  CHECK(log.summary(kT0).all.total == 2);

  // Once the directory is back, writes succeed again and the counter stays as a record.
  std::filesystem::create_directories(tmp / "gone");
  REQUIRE(log.append(entry(3)).ok());
  CHECK(log.disk_failures() == 2);
  CHECK(line_count(tmp / "gone" / "audit.log") == 1);
}

TEST_CASE("an audit.log that is a symbolic link is not followed: the failure is reported, not thrown") {
  // A link to /dev/full would also fail every write with ENOSPC, but a link must not be followed
  // at all (it could point at a file of the user's that the log would append to).
  if (!std::filesystem::exists("/dev/full")) return;
  scratch_dir tmp;
  std::filesystem::create_symlink("/dev/full", tmp / "audit.log");
  audit_log log(persisted_to(tmp / "audit.log"));
  auto r = log.append(entry(1));
  REQUIRE_FALSE(r.ok());
  CHECK(log.disk_failures() == 1);
  CHECK(log.last_disk_error().find("is a symbolic link") != std::string::npos);
  CHECK(log.size() == 1);
  CHECK(std::filesystem::is_symlink(tmp / "audit.log"));
}

TEST_CASE("a read-only directory is reported, not thrown (only meaningful when not root)") {
  if (!opentabs::testing::permission_bits_bind()) return;  // root and Windows ignore them; the cases above cover failures
  scratch_dir tmp;
  std::filesystem::create_directories(tmp / "ro");
  std::filesystem::permissions(tmp / "ro", std::filesystem::perms(0500));
  audit_log log(persisted_to(tmp / "ro" / "audit.log"));
  CHECK_FALSE(log.append(entry(1)).ok());
  CHECK(log.disk_failures() == 1);
  CHECK(log.last_disk_error().find("Permission denied") != std::string::npos);
  std::filesystem::permissions(tmp / "ro", std::filesystem::perms(0700));
}

// Skipped on Windows: a file another handle holds open cannot be removed and recreated at once, as unlink allows.
TEST_CASE("audit.log deleted while the server runs: the next entry recreates it (0600)" * doctest::skip(opentabs::testing::on_windows)) {
  scratch_dir tmp;
  auto file = tmp / "audit.log";
  audit_log log(persisted_to(file));
  REQUIRE(log.append(entry(0)).ok());
  std::filesystem::remove(file);
  REQUIRE(log.append(entry(1)).ok());
  REQUIRE(std::filesystem::exists(file));
  CHECK(line_count(file) == 1);
  CHECK(read_text(file).find("slack_tool_1\"") != std::string::npos);
  CHECK_POSIX_MODE(mode_of(file) == 0600);
}

TEST_CASE("audit.log renamed away by another program: entries follow the path at the next rotation check") {
  scratch_dir tmp;
  auto file = tmp / "audit.log";
  auto opts = persisted_to(file);
  opts.rotation_check_every = 2;  // path checks before appends 1, 3, 5, ...
  audit_log log(opts);
  REQUIRE(log.append(entry(0)).ok());
  std::filesystem::rename(file, tmp / "audit.log.old");
  REQUIRE(log.append(entry(1)).ok());  // no check yet: still the renamed file, nothing lost
  REQUIRE(log.append(entry(2)).ok());  // checked: a new audit.log
  CHECK(line_count(tmp / "audit.log.old") == 2);
  CHECK(line_count(file) == 1);
  CHECK(read_text(file).find("slack_tool_2\"") != std::string::npos);
}
