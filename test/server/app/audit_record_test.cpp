// One audit entry per tool call: the first failure detail stands, finish() records once
// with the result's outcome (an error without detail takes the result's text, a success
// drops any detail), and a withdrawn call records nothing.
#include "app/audit_record.hpp"

#include <doctest/doctest.h>

using namespace opentabs;
using namespace opentabs::app;

namespace {

tools::tool_def slack_send() {
  tools::tool_def t;
  t.plugin = "slack";
  t.base_name = "send";
  t.name = "slack_send";
  return t;
}

std::vector<audit::audit_entry> entries_of(const audit::audit_log& log) { return log.query(audit::audit_query{}); }

}  // namespace

TEST_CASE("finish records one entry naming the tool, with the result's outcome; the first failure detail stands") {
  audit::audit_log log(audit::audit_log_options{});
  const auto tool = slack_send();
  audit_record record(log, tool);
  record.fail(audit::audit_code::validation_error, "text: must be string");
  record.fail(audit::audit_code::tool_error, "a later stage");
  auto r = record.finish(tools::call_result::text("Invalid arguments", true, errc::tool_failed));
  CHECK(r.is_error);  // handed back unchanged
  CHECK(record.recorded());
  record.finish(tools::call_result::text("again"));  // a second exit records nothing
  auto entries = entries_of(log);
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].tool == "slack_send");
  CHECK(entries[0].plugin == "slack");
  CHECK_FALSE(entries[0].success);
  CHECK_FALSE(entries[0].timestamp.empty());
  REQUIRE(entries[0].error);
  CHECK(entries[0].error->code == "VALIDATION_ERROR");
  CHECK(entries[0].error->message == "text: must be string");
}

TEST_CASE("an error result without detail is recorded with its own text; a success drops a detail set on the way") {
  audit::audit_log log(audit::audit_log_options{});
  const auto tool = slack_send();
  {
    audit_record record(log, tool);
    record.finish(tools::call_result::text("the page said no", true, errc::tool_failed));
  }
  {
    audit_record record(log, tool);
    record.entry().error = audit::make_audit_error(audit::audit_code::tool_error, "retried");
    record.finish(tools::call_result::text("fine"));
  }
  auto entries = entries_of(log);  // newest first
  REQUIRE(entries.size() == 2);
  CHECK(entries[0].success);
  CHECK_FALSE(entries[0].error);
  REQUIRE(entries[1].error);
  CHECK(entries[1].error->code == "UNKNOWN");
  CHECK(entries[1].error->message == "the page said no");
}

TEST_CASE("a withdrawn call, or one whose record is never finished, writes nothing") {
  audit::audit_log log(audit::audit_log_options{});
  const auto tool = slack_send();
  {
    audit_record asked(log, tool);
    asked.withdraw();
    auto r = asked.finish(tools::call_result::text("input required"));
    CHECK_FALSE(r.is_error);
    CHECK_FALSE(asked.recorded());
  }
  { audit_record abandoned(log, tool); }  // a frame destroyed at shutdown
  CHECK(entries_of(log).empty());
}
