// GET /audit query parameters and the CLI's --since window.
#include <doctest/doctest.h>

#include "audit/audit_query.hpp"

using namespace opentabs;
using namespace opentabs::audit;

TEST_CASE("defaults: limit 50, no filters") {
  auto q = parse_audit_query(std::nullopt, std::nullopt, std::nullopt, std::nullopt);
  REQUIRE(q.ok());
  CHECK(q->limit == 50);
  CHECK_FALSE(q->filter.plugin);
  CHECK_FALSE(q->filter.tool);
  CHECK_FALSE(q->filter.success);
}

TEST_CASE("all parameters") {
  auto q = parse_audit_query("500", "slack", "slack_send_message", "false");
  REQUIRE(q.ok());
  CHECK(q->limit == 500);
  CHECK(q->filter.plugin == "slack");
  CHECK(q->filter.tool == "slack_send_message");
  CHECK(q->filter.success == false);
  CHECK(parse_audit_query("1", "", "", "true")->filter.success == true);
  CHECK_FALSE(parse_audit_query("1", "", "", std::nullopt)->filter.plugin.has_value());
}

TEST_CASE("bad limits and success values are clear errors") {
  for (const char* bad : {"0", "501", "abc", "-1", "10.5", " 5", "", "99999999"}) {
    auto q = parse_audit_query(bad, std::nullopt, std::nullopt, std::nullopt);
    REQUIRE_FALSE(q.ok());
    CHECK(q.err().is(errc::invalid_params));
    CHECK(q.err().message.find("use an integer from 1 to 500") != std::string::npos);
  }
  auto s = parse_audit_query(std::nullopt, std::nullopt, std::nullopt, "yes");
  REQUIRE_FALSE(s.ok());
  CHECK(s.err().message == "Invalid success \"yes\": use true or false");
}

TEST_CASE("--since accepts s, m, h and d") {
  CHECK(*parse_since("45s") == 45'000);
  CHECK(*parse_since("30m") == 30 * 60'000);
  CHECK(*parse_since("1h") == 3'600'000);
  CHECK(*parse_since("2d") == 2 * 86'400'000LL);
  for (const char* bad : {"30", "m", "1w", "-1h", "0m", "1.5h", "", "h1", "99999999d"}) {
    auto r = parse_since(bad);
    REQUIRE_FALSE(r.ok());
    CHECK(r.err().is(errc::invalid_params));
    CHECK(r.err().message.find("--since") != std::string::npos);
  }
}

TEST_CASE("matching: plugin, tool in either underscore spelling, success, since") {
  audit_entry e{"2026-11-22T09:31:32.859Z", "slack_send_message", "slack", true, 5, std::nullopt, std::nullopt};
  CHECK(matches({}, e, 1000));
  audit_filter slack_only;
  slack_only.plugin = "slack";
  CHECK(matches(slack_only, e, 1000));
  slack_only.plugin = "jira";
  CHECK_FALSE(matches(slack_only, e, 1000));
  audit_filter by_tool;
  by_tool.tool = "slack__send_message";
  CHECK(matches(by_tool, e, 1000));
  by_tool.tool = "slack_send_message";
  audit_entry double_form = e;
  double_form.tool = "slack__send_message";
  CHECK(matches(by_tool, double_form, 1000));
  by_tool.tool = "slack_read";
  CHECK_FALSE(matches(by_tool, e, 1000));
  audit_filter failures;
  failures.success = false;
  CHECK_FALSE(matches(failures, e, 1000));
  audit_filter since;
  since.since_ms = 1000;
  CHECK(matches(since, e, 1000));
  CHECK_FALSE(matches(since, e, 999));
  CHECK_FALSE(matches(since, e, -1));
  CHECK(canonical_tool_name("browser_list_tabs") == "browser_list_tabs");
  CHECK(canonical_tool_name("e2e-test__echo") == "e2e-test_echo");
}
