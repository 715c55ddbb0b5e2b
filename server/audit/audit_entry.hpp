// One audited tool invocation (spec §2.4) and its exact JSON / NDJSON form:
//   {"timestamp":"2026-11-22T09:31:32.859Z","tool":"browser_list_tabs","plugin":"browser",
//    "success":false,"durationMs":0,"error":{"code":"UNKNOWN","message":"...","category":"..."}}
// `error` appears only on failures; `category` only when the plugin gave one.
// "decidedBy" follows "durationMs" when the call asked the user (permission `ask`): where the
// decision came from, "side_panel" or "elicitation" (the agent's own UI), named by
// audit/decided_by.hpp.  An answer that came after the question was decided elsewhere is
// its own entry, not an invocation: "lostAnswer":{"by","decision"} after "decidedBy" (the
// winner), success false, durationMs 0, error code ANSWER_NOT_USED; /health's summary
// counts only invocations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "audit/decided_by.hpp"
#include "json/json.hpp"
#include "util/result.hpp"

namespace opentabs::audit {

struct audit_error {
  std::string code;     // ToolError code, stringified JSON-RPC code ("-32001") or "UNKNOWN"
  std::string message;
  std::optional<std::string> category;
};

struct audit_entry {
  std::string timestamp;  // ISO-8601 UTC with milliseconds
  std::string tool;       // full MCP tool name
  std::string plugin;     // plugin name or "browser"
  bool success = false;
  std::int64_t duration_ms = 0;
  std::optional<audit_error> error;
  std::optional<audit::decided_by> decided_by;  // none: nobody was asked
  // Set on the entry of an answer that lost (see above): who gave it and what it said
  // ("allow_once", "always_allow", "deny").
  struct lost_answer {
    audit::decided_by by = audit::decided_by::elicitation;
    std::string decision;
  };
  std::optional<lost_answer> lost{};

  // Whether the entry records a tool invocation (not an answer that lost).
  bool is_invocation() const { return !lost; }
};

// Error text is capped so one plugin returning megabytes of error cannot bloat the
// in-memory ring (500 entries) or the log file; the cut keeps UTF-8 intact.
inline constexpr std::size_t kMaxAuditMessageBytes = 4096;
// Names and codes are short in practice; a cap keeps hostile values from doing harm.
inline constexpr std::size_t kMaxAuditFieldBytes = 512;
// Longest NDJSON line accepted when reading the log back.
inline constexpr std::size_t kMaxAuditLineBytes = 64 * 1024;

// Applies the caps above (in place).
void cap_lengths(audit_entry& e);

json::object to_json(const audit_entry& e);
// One NDJSON line, newline included.
std::string to_ndjson_line(const audit_entry& e);

// Parses one entry.  Error "invalid_entry" says which field is missing or wrong.
result<audit_entry> audit_entry_from_json(const json::value& v);
// Parses one NDJSON line (without its newline).
result<audit_entry> parse_ndjson_line(std::string_view line);

}  // namespace opentabs::audit
