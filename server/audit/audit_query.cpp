#include "audit/audit_query.hpp"

#include <cctype>

namespace opentabs::audit {
namespace {

error invalid_query(std::string message) { return make_error(errc::invalid_params, std::move(message)); }

// Digits only, no sign, no spaces, at most `max_digits`.
std::optional<std::int64_t> parse_count(std::string_view s, std::size_t max_digits) {
  if (s.empty() || s.size() > max_digits) return std::nullopt;
  std::int64_t n = 0;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    n = n * 10 + (c - '0');
  }
  return n;
}

std::string shown(std::string_view s) {
  if (s.size() > 40) return "\"" + std::string(s.substr(0, 37)) + "...\"";
  return "\"" + std::string(s) + "\"";
}

}  // namespace

std::string canonical_tool_name(std::string_view name) {
  std::string out(name);
  auto pos = out.find("__");
  if (pos != std::string::npos && pos > 0) out.erase(pos, 1);
  return out;
}

result<audit_query> parse_audit_query(std::optional<std::string_view> limit, std::optional<std::string_view> plugin,
                                      std::optional<std::string_view> tool, std::optional<std::string_view> success) {
  audit_query q;
  if (limit) {
    auto n = parse_count(*limit, 6);
    if (!n || *n < 1 || *n > static_cast<std::int64_t>(kMaxQueryLimit))
      return invalid_query("Invalid limit " + shown(*limit) + ": use an integer from 1 to " + std::to_string(kMaxQueryLimit));
    q.limit = static_cast<std::size_t>(*n);
  }
  if (plugin && !plugin->empty()) q.filter.plugin = std::string(*plugin);
  if (tool && !tool->empty()) q.filter.tool = std::string(*tool);
  if (success) {
    if (*success == "true") q.filter.success = true;
    else if (*success == "false") q.filter.success = false;
    else return invalid_query("Invalid success " + shown(*success) + ": use true or false");
  }
  return q;
}

result<std::int64_t> parse_since(std::string_view text) {
  if (text.size() < 2) return invalid_query("Invalid --since " + shown(text) + ": use a number and a unit, e.g. 30m, 1h, 2d");
  char unit = text.back();
  std::int64_t unit_ms = 0;
  switch (unit) {
    case 's': unit_ms = 1000; break;
    case 'm': unit_ms = 60 * 1000; break;
    case 'h': unit_ms = 60 * 60 * 1000; break;
    case 'd': unit_ms = 24 * 60 * 60 * 1000; break;
    default: return invalid_query("Invalid --since " + shown(text) + ": the unit must be s, m, h or d (e.g. 30m, 1h, 2d)");
  }
  auto n = parse_count(text.substr(0, text.size() - 1), 7);
  if (!n || *n < 1) return invalid_query("Invalid --since " + shown(text) + ": use a positive whole number before the unit, e.g. 30m");
  return *n * unit_ms;
}

bool matches(const audit_filter& f, const audit_entry& e, std::int64_t timestamp_ms) {
  if (f.plugin && e.plugin != *f.plugin) return false;
  if (f.tool && e.tool != *f.tool && canonical_tool_name(e.tool) != canonical_tool_name(*f.tool)) return false;
  if (f.success && e.success != *f.success) return false;
  if (f.since_ms && (timestamp_ms < 0 || timestamp_ms < *f.since_ms)) return false;
  return true;
}

}  // namespace opentabs::audit
