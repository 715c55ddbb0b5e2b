// Reading audit.log files back: torn last lines, corrupt lines, tails of big files, and the
// CLI's `audit --file --since` query across audit.log.1 + audit.log.
#include <doctest/doctest.h>

#include "audit/audit_file.hpp"
#include "test/server/config/scratch_dir.hpp"
#include "util/clock.hpp"

using namespace opentabs;
using namespace opentabs::audit;
using opentabs::test::scratch_dir;
using opentabs::test::write_text;

namespace {

std::string line_at(std::int64_t epoch_ms, const std::string& tool, bool success = true, std::int64_t duration = 10) {
  audit_entry e{iso8601_utc(std::chrono::system_clock::time_point(std::chrono::milliseconds(epoch_ms))), tool,
                tool.substr(0, tool.find('_')), success, duration, std::nullopt, std::nullopt};
  if (!success) e.error = audit_error{"UNKNOWN", "failed", std::nullopt};
  return to_ndjson_line(e);
}

constexpr std::int64_t kT0 = 1'790'000'000'000;  // a fixed instant (2026)

}  // namespace

TEST_CASE("a torn last line is skipped and the lines before it kept") {
  std::string text = line_at(kT0, "a_one") + line_at(kT0 + 1, "a_two") + "{\"timestamp\":\"2026-11-22T09:3";
  auto r = parse_audit_text(text, false, "audit.log");
  CHECK(r.entries.size() == 2);
  CHECK(r.entries[1].tool == "a_two");
  CHECK(r.skipped_lines == 1);
  REQUIRE(r.warnings.size() == 1);
  CHECK(r.warnings[0].find("incomplete last line 3 of audit.log") != std::string::npos);
}

TEST_CASE("a complete last entry that only lost its newline is kept") {
  auto line = line_at(kT0, "a_one");
  auto r = parse_audit_text(line + line.substr(0, line.size() - 1), false, "audit.log");
  CHECK(r.entries.size() == 2);
  CHECK(r.skipped_lines == 0);
}

TEST_CASE("a corrupt middle line, blank lines and CRLF endings") {
  std::string crlf = line_at(kT0 + 2, "a_three");
  crlf.insert(crlf.size() - 1, "\r");
  std::string text = line_at(kT0, "a_one") + "not json at all\n\n" + line_at(kT0 + 1, "a_two") + crlf;
  auto r = parse_audit_text(text, false, "audit.log");
  CHECK(r.entries.size() == 3);
  CHECK(r.skipped_lines == 1);
  CHECK(r.warnings[0].find("corrupt line 2") != std::string::npos);
}

TEST_CASE("a tail that starts mid-line drops the fragment silently") {
  std::string full = line_at(kT0, "a_one") + line_at(kT0 + 1, "a_two");
  auto r = parse_audit_text(full.substr(10), true, "audit.log");
  CHECK(r.entries.size() == 1);
  CHECK(r.entries[0].tool == "a_two");
  CHECK(r.skipped_lines == 0);
}

TEST_CASE("read_audit_files reads only the tail of a big file, oldest file first") {
  scratch_dir tmp;
  std::string rotated, current;
  for (int i = 0; i < 50; ++i) rotated += line_at(kT0 + i, "old_" + std::to_string(i));
  for (int i = 0; i < 5; ++i) current += line_at(kT0 + 100 + i, "new_" + std::to_string(i));
  write_text(tmp / "audit.log.1", rotated);
  write_text(tmp / "audit.log", current);
  auto line_size = line_at(kT0, "old_10").size();
  // Room for about ten of the rotated file's lines.
  auto r = read_audit_files({tmp / "audit.log.1", tmp / "audit.log"}, line_size * 10 + line_size / 2);
  CHECK(r.skipped_lines == 0);
  REQUIRE(r.entries.size() == 15);
  CHECK(r.entries.front().tool == "old_40");
  CHECK(r.entries[9].tool == "old_49");
  CHECK(r.entries.back().tool == "new_4");
  // Missing files are simply absent.
  auto none = read_audit_files({tmp / "nope.1", tmp / "nope"}, 1000);
  CHECK(none.entries.empty());
  CHECK(none.warnings.empty());
}

TEST_CASE("ends_mid_line spots a torn file") {
  scratch_dir tmp;
  CHECK_FALSE(ends_mid_line(tmp / "missing"));
  write_text(tmp / "empty", "");
  CHECK_FALSE(ends_mid_line(tmp / "empty"));
  write_text(tmp / "good", line_at(kT0, "a_b"));
  CHECK_FALSE(ends_mid_line(tmp / "good"));
  write_text(tmp / "torn", line_at(kT0, "a_b") + "{\"time");
  CHECK(ends_mid_line(tmp / "torn"));
}

TEST_CASE("query_audit_files: newest first across both files, with --since and filters") {
  scratch_dir tmp;
  auto now = now_epoch_ms();
  const std::int64_t hour = 3'600'000;
  write_text(tmp / "audit.log.1", line_at(now - 50 * hour, "slack_old") + line_at(now - 3 * hour, "slack_send", false));
  write_text(tmp / "audit.log", line_at(now - 2 * hour, "jira_search") + line_at(now - 20 * 60'000, "slack_send") +
                                    "garbage\n" + line_at(now - 60'000, "browser_list_tabs"));
  audit_query q;
  q.limit = 20;
  q.filter.since_ms = now - *parse_since("1h");
  auto recent = query_audit_files(tmp / "audit.log", tmp / "audit.log.1", q);
  REQUIRE(recent.entries.size() == 2);
  CHECK(recent.entries[0].tool == "browser_list_tabs");
  CHECK(recent.entries[1].tool == "slack_send");
  CHECK(recent.skipped_lines == 1);

  q.filter.since_ms = now - *parse_since("2d");
  q.filter.plugin = "slack";
  auto slack = query_audit_files(tmp / "audit.log", tmp / "audit.log.1", q);
  REQUIRE(slack.entries.size() == 2);
  CHECK(slack.entries[0].timestamp > slack.entries[1].timestamp);
  CHECK_FALSE(slack.entries[1].success);

  audit_query all;
  all.limit = 3;
  auto limited = query_audit_files(tmp / "audit.log", tmp / "audit.log.1", all);
  REQUIRE(limited.entries.size() == 3);
  CHECK(limited.entries[2].tool == "jira_search");
}
