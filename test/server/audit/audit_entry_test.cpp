// Audit entries ↔ JSON exactly as spec §2.4, validation of lines read back, length caps.
#include <doctest/doctest.h>

#include <vector>

#include "audit/audit_entry.hpp"

using namespace opentabs;
using namespace opentabs::audit;

TEST_CASE("a failed entry serialises exactly like the original server's") {
  audit_entry e{"2026-11-22T09:31:32.859Z", "browser_list_tabs", "browser", false, 0,
                audit_error{"UNKNOWN", "Extension not connected", std::nullopt}, std::nullopt};
  CHECK(to_ndjson_line(e) ==
        "{\"timestamp\":\"2026-11-22T09:31:32.859Z\",\"tool\":\"browser_list_tabs\",\"plugin\":\"browser\","
        "\"success\":false,\"durationMs\":0,\"error\":{\"code\":\"UNKNOWN\",\"message\":\"Extension not connected\"}}\n");
}

TEST_CASE("a successful entry has no error key; category appears only when given") {
  audit_entry ok_entry{"2026-02-21T10:30:00.000Z", "slack_send_message", "slack", true, 245, std::nullopt, std::nullopt};
  CHECK(json::dump(to_json(ok_entry)) ==
        R"({"timestamp":"2026-02-21T10:30:00.000Z","tool":"slack_send_message","plugin":"slack","success":true,"durationMs":245})");
  audit_entry rate_limited{"2026-02-21T10:30:00.000Z", "slack_send_message", "slack", false, 31,
                           audit_error{"RATE_LIMITED", "Slack says slow down", std::string("rate_limit")}, std::nullopt};
  CHECK(json::dump(to_json(rate_limited)).find(R"("error":{"code":"RATE_LIMITED","message":"Slack says slow down","category":"rate_limit"})") !=
        std::string::npos);
}

TEST_CASE("the NDJSON line is exactly the JSON object's serialization, for every shape") {
  const std::vector<audit_entry> entries{
      {"2026-02-21T10:30:00.000Z", "slack_send_message", "slack", true, 245, std::nullopt, std::nullopt},
      {"2026-02-21T10:30:00.000Z", "t", "p", false, -3, audit_error{"X", "", std::nullopt}, std::nullopt},
      {"2026-02-21T10:30:00.000Z", "we\"ird\\", "pl\u00e9\x01", false, 9007199254740993,
       audit_error{"-32001", "tab\tquote\"\u2028end", std::string("c\nat")}, std::nullopt},
  };
  for (const auto& e : entries) CHECK(to_ndjson_line(e) == json::dump(to_json(e)) + "\n");
}

TEST_CASE("entries round-trip through NDJSON") {
  audit_entry e{"2026-11-22T09:31:32.859Z", "e2e-test__echo", "e2e-test", false, 1234,
                audit_error{"-32001", "Dispatch timed out", std::string("timeout")}, std::nullopt};
  auto line = to_ndjson_line(e);
  CHECK(line.back() == '\n');
  CHECK(std::count(line.begin(), line.end(), '\n') == 1);
  auto back = parse_ndjson_line(std::string_view(line).substr(0, line.size() - 1));
  REQUIRE(back.ok());
  CHECK(back->timestamp == e.timestamp);
  CHECK(back->tool == e.tool);
  CHECK(back->plugin == e.plugin);
  CHECK(back->success == e.success);
  CHECK(back->duration_ms == 1234);
  REQUIRE(back->error.has_value());
  CHECK(back->error->code == "-32001");
  CHECK(back->error->message == "Dispatch timed out");
  CHECK(back->error->category == "timeout");
}

TEST_CASE("a message with newlines stays on one NDJSON line") {
  audit_entry e{"2026-11-22T09:31:32.859Z", "t", "p", false, 1, audit_error{"X", "line one\nline two\r\n", std::nullopt}, std::nullopt};
  auto line = to_ndjson_line(e);
  CHECK(std::count(line.begin(), line.end(), '\n') == 1);
  CHECK(parse_ndjson_line(line.substr(0, line.size() - 1))->error->message == "line one\nline two\r\n");
}

TEST_CASE("lines that are not valid entries are rejected with the reason") {
  auto reason = [](const std::string& line) {
    auto r = parse_ndjson_line(line);
    REQUIRE_FALSE(r.ok());
    CHECK(r.err().is(errc::invalid_params));
    return r.err().message;
  };
  CHECK(reason(R"({"timestamp":"yesterday","tool":"t","plugin":"p","success":true,"durationMs":1})").find("timestamp") != std::string::npos);
  CHECK(reason(R"({"timestamp":"2026-11-22T09:31:32.859Z","plugin":"p","success":true,"durationMs":1})").find("\"tool\"") != std::string::npos);
  CHECK(reason(R"({"timestamp":"2026-11-22T09:31:32.859Z","tool":"t","plugin":"p","success":"yes","durationMs":1})").find("success") != std::string::npos);
  CHECK(reason(R"({"timestamp":"2026-11-22T09:31:32.859Z","tool":"t","plugin":"p","success":true,"durationMs":-3})").find("durationMs") != std::string::npos);
  CHECK(reason(R"({"timestamp":"2026-11-22T09:31:32.859Z","tool":"t","plugin":"p","success":false,"durationMs":1,"error":"boom"})").find("error") != std::string::npos);
  CHECK(reason(R"({"timestamp":"2026-11-22T09:31:32.859Z","tool":"t","plugin":"p","success":false,"durationMs":1,"error":{"code":1}})").find("code") != std::string::npos);
  CHECK(reason(R"([1,2])").find("object") != std::string::npos);
  CHECK(reason(R"({"timestamp":"2026-11-22T09:31:32.8)").find("invalid audit line") != std::string::npos);
}

TEST_CASE("fractional durations from another writer round to whole milliseconds; CRLF is tolerated") {
  auto r = parse_ndjson_line("{\"timestamp\":\"2026-11-22T09:31:32.859Z\",\"tool\":\"t\",\"plugin\":\"p\",\"success\":true,\"durationMs\":12.6}\r");
  REQUIRE(r.ok());
  CHECK(r->duration_ms == 13);
}

TEST_CASE("cap_lengths bounds error text without splitting UTF-8") {
  std::string message(kMaxAuditMessageBytes - 1, 'a');
  message += "\xC3\xA9\xC3\xA9";  // "éé" straddles the limit
  audit_entry e{"2026-11-22T09:31:32.859Z", "t", "p", false, -5, audit_error{"X", message, std::nullopt}, std::nullopt};
  cap_lengths(e);
  CHECK(e.duration_ms == 0);
  CHECK(e.error->message.size() <= kMaxAuditMessageBytes + 3);
  CHECK(e.error->message.substr(e.error->message.size() - 3) == "...");
  // The cut happened before the two-byte character, not inside it.
  CHECK(e.error->message[kMaxAuditMessageBytes - 2] == 'a');
  CHECK(e.error->message.substr(kMaxAuditMessageBytes - 1, 3) == "...");
  std::string huge_tool(10000, 't');
  audit_entry big{"2026-11-22T09:31:32.859Z", huge_tool, "p", true, 1, std::nullopt, std::nullopt};
  cap_lengths(big);
  CHECK(big.tool.size() == kMaxAuditFieldBytes + 3);
}

TEST_CASE("decidedBy (where an ask decision came from) follows durationMs and round-trips; other writers' lines have none") {
  audit_entry e{"2026-11-22T09:31:32.859Z", "fixture-notes_create_note", "fixture-notes", true, 12, std::nullopt, decided_by::elicitation};
  auto line = to_ndjson_line(e);
  CHECK(line == json::dump(to_json(e)) + "\n");
  CHECK(line.find(R"("durationMs":12,"decidedBy":"elicitation")") != std::string::npos);
  auto back = parse_ndjson_line(std::string_view(line).substr(0, line.size() - 1));
  REQUIRE(back.ok());
  CHECK(back->decided_by == decided_by::elicitation);
  auto plain = parse_ndjson_line(R"({"timestamp":"2026-11-22T09:31:32.859Z","tool":"t","plugin":"p","success":true,"durationMs":1})");
  REQUIRE(plain.ok());
  CHECK_FALSE(plain->decided_by);
  CHECK_FALSE(parse_ndjson_line(R"({"timestamp":"2026-11-22T09:31:32.859Z","tool":"t","plugin":"p","success":true,"durationMs":1,"decidedBy":7})"));
  // decidedBy is one of the names of one table, not free text.
  CHECK_FALSE(parse_ndjson_line(R"({"timestamp":"2026-11-22T09:31:32.859Z","tool":"t","plugin":"p","success":true,"durationMs":1,"decidedBy":"someone"})"));
  for (const auto& [value, name] : decided_by_names) {
    CHECK(decided_by_from(name) == value);
    CHECK(to_string(value) == name);
  }
}

TEST_CASE("an answer that lost is its own entry: lostAnswer after decidedBy, round-trips, and is not counted as an invocation") {
  audit_entry e{"2026-11-22T09:31:32.859Z", "fixture-notes_create_note", "fixture-notes", false, 0, std::nullopt, decided_by::side_panel};
  e.lost = audit_entry::lost_answer{decided_by::elicitation, "deny"};
  e.error = audit_error{"ANSWER_NOT_USED", "not used", std::nullopt};
  auto line = to_ndjson_line(e);
  CHECK(line == json::dump(to_json(e)) + "\n");
  CHECK(line.find(R"("decidedBy":"side_panel","lostAnswer":{"by":"elicitation","decision":"deny"})") != std::string::npos);
  auto back = parse_ndjson_line(std::string_view(line).substr(0, line.size() - 1));
  REQUIRE(back.ok());
  REQUIRE(back->lost);
  CHECK(back->lost->by == decided_by::elicitation);
  CHECK(back->lost->decision == "deny");
  CHECK_FALSE(back->is_invocation());
  CHECK_FALSE(parse_ndjson_line(R"({"timestamp":"2026-11-22T09:31:32.859Z","tool":"t","plugin":"p","success":false,"durationMs":0,"lostAnswer":{"by":"x"}})"));
}
