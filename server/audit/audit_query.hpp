// Which audit entries a caller wants: GET /audit's query parameters (limit 1..500,
// default 50; plugin; tool; success=true|false) and the CLI's --since 30m|1h|2d window.
// Parsing is strict and every rejection names the parameter and what it accepts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "audit/audit_entry.hpp"
#include "util/result.hpp"

namespace opentabs::audit {

inline constexpr std::size_t kDefaultQueryLimit = 50;
inline constexpr std::size_t kMaxQueryLimit = 500;

struct audit_filter {
  std::optional<std::string> plugin;
  // Matches the entry's tool name; "slack__send_message" and "slack_send_message" are the
  // same tool (the double-underscore spelling is accepted everywhere).
  std::optional<std::string> tool;
  std::optional<bool> success;
  std::optional<std::int64_t> since_ms;  // epoch ms; entries at or after it
};

struct audit_query {
  std::size_t limit = kDefaultQueryLimit;
  audit_filter filter;
};

// From the raw query-string values (nullopt = parameter absent).  An empty plugin/tool
// value means "no filter".  Error code "invalid_query".
result<audit_query> parse_audit_query(std::optional<std::string_view> limit, std::optional<std::string_view> plugin,
                                      std::optional<std::string_view> tool, std::optional<std::string_view> success);

// "45s", "30m", "1h", "2d" → milliseconds.  Error "invalid_query".
result<std::int64_t> parse_since(std::string_view text);

// `timestamp_ms` is the entry's parsed timestamp (-1 when unparseable: never "since").
bool matches(const audit_filter& f, const audit_entry& e, std::int64_t timestamp_ms);

// "slack__send_message" → "slack_send_message"; other names unchanged.
std::string canonical_tool_name(std::string_view name);

}  // namespace opentabs::audit
