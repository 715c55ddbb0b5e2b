#include "audit/audit_entry.hpp"

#include <algorithm>
#include <cmath>

#include "util/clock.hpp"

namespace opentabs::audit {
namespace {

// Cuts `s` to at most `max` bytes without splitting a UTF-8 sequence.
void truncate_utf8(std::string& s, std::size_t max) {
  if (s.size() <= max) return;
  std::size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  s.resize(cut);
  s += "...";
}

error invalid(std::string what) { return make_error(errc::invalid_params, "invalid audit entry: " + std::move(what)); }

}  // namespace

void cap_lengths(audit_entry& e) {
  truncate_utf8(e.tool, kMaxAuditFieldBytes);
  truncate_utf8(e.plugin, kMaxAuditFieldBytes);
  truncate_utf8(e.timestamp, 64);
  if (e.duration_ms < 0) e.duration_ms = 0;
  if (e.lost) truncate_utf8(e.lost->decision, kMaxAuditFieldBytes);
  if (e.error) {
    truncate_utf8(e.error->code, kMaxAuditFieldBytes);
    truncate_utf8(e.error->message, kMaxAuditMessageBytes);
    if (e.error->category) truncate_utf8(*e.error->category, kMaxAuditFieldBytes);
  }
}

json::object to_json(const audit_entry& e) {
  json::object o;
  o["timestamp"] = json::str(e.timestamp);
  o["tool"] = json::str(e.tool);
  o["plugin"] = json::str(e.plugin);
  o["success"] = e.success;
  o["durationMs"] = e.duration_ms;
  if (e.decided_by) o["decidedBy"] = json::str(to_string(*e.decided_by));
  if (e.lost) o["lostAnswer"] = json::object{{"by", json::str(to_string(e.lost->by))}, {"decision", json::str(e.lost->decision)}};
  if (e.error) {
    json::object err;
    err["code"] = json::str(e.error->code);
    err["message"] = json::str(e.error->message);
    if (e.error->category) err["category"] = json::str(*e.error->category);
    o["error"] = std::move(err);
  }
  return o;
}

// Written as text, in to_json's key order and with its escaping (json::append_quoted writes
// exactly the serializer's escaping): one line per audited call, so it is worth skipping the object.
std::string to_ndjson_line(const audit_entry& e) {
  std::string out;
  out.reserve(128 + e.tool.size() + e.plugin.size() + (e.error ? e.error->message.size() + 64 : 0));
  out += R"({"timestamp":)";
  json::append_quoted(out, e.timestamp);
  out += R"(,"tool":)";
  json::append_quoted(out, e.tool);
  out += R"(,"plugin":)";
  json::append_quoted(out, e.plugin);
  out += e.success ? R"(,"success":true)" : R"(,"success":false)";
  out += R"(,"durationMs":)";
  out += std::to_string(e.duration_ms);
  if (e.decided_by) {
    out += R"(,"decidedBy":)";
    json::append_quoted(out, to_string(*e.decided_by));
  }
  if (e.lost) {
    out += R"(,"lostAnswer":{"by":)";
    json::append_quoted(out, to_string(e.lost->by));
    out += R"(,"decision":)";
    json::append_quoted(out, e.lost->decision);
    out += '}';
  }
  if (e.error) {
    out += R"(,"error":{"code":)";
    json::append_quoted(out, e.error->code);
    out += R"(,"message":)";
    json::append_quoted(out, e.error->message);
    if (e.error->category) {
      out += R"(,"category":)";
      json::append_quoted(out, *e.error->category);
    }
    out += '}';
  }
  out += "}\n";
  return out;
}

result<audit_entry> audit_entry_from_json(const json::value& v) {
  const auto* o = v.if_object();
  if (!o) return invalid("expected an object, got " + std::string(json::type_name(v)));
  audit_entry e;
  const auto* ts = json::get_string(*o, "timestamp");
  if (!ts || parse_iso8601_ms(std::string(*ts)) < 0) return invalid("\"timestamp\" must be an ISO-8601 string");
  e.timestamp = std::string(*ts);
  const auto* tool = json::get_string(*o, "tool");
  if (!tool || tool->empty()) return invalid("\"tool\" must be a non-empty string");
  e.tool = std::string(*tool);
  const auto* plugin = json::get_string(*o, "plugin");
  if (!plugin) return invalid("\"plugin\" must be a string");
  e.plugin = std::string(*plugin);
  auto success = json::get_bool(*o, "success");
  if (!success) return invalid("\"success\" must be true or false");
  e.success = *success;
  auto duration = json::get_number(*o, "durationMs");
  if (!duration || !std::isfinite(*duration) || *duration < 0) return invalid("\"durationMs\" must be a non-negative number");
  // Durations are whole milliseconds on the wire; a fractional value from another writer rounds.
  e.duration_ms = static_cast<std::int64_t>(std::llround(std::min(*duration, 9.0e15)));
  if (const auto* by = json::find(*o, "decidedBy"); by && !by->is_null()) {
    auto named = by->is_string() ? decided_by_from(by->get_string()) : std::nullopt;
    if (!named) return invalid("\"decidedBy\" must name who decided (\"side_panel\", \"elicitation\", …)");
    e.decided_by = *named;
  }
  if (const auto* lost = json::find(*o, "lostAnswer"); lost && !lost->is_null()) {
    const auto* l = lost->if_object();
    const auto* by = l ? json::get_string(*l, "by") : nullptr;
    const auto* decision = l ? json::get_string(*l, "decision") : nullptr;
    auto named = by ? decided_by_from(*by) : std::nullopt;
    if (!named || !decision) return invalid("\"lostAnswer\" must be {\"by\": who answered, \"decision\": what they answered}");
    e.lost = audit_entry::lost_answer{*named, std::string(*decision)};
  }
  if (const auto* err_value = json::find(*o, "error"); err_value && !err_value->is_null()) {
    const auto* err = err_value->if_object();
    if (!err) return invalid("\"error\" must be an object");
    const auto* code = json::get_string(*err, "code");
    const auto* message = json::get_string(*err, "message");
    if (!code || !message) return invalid("\"error\" needs string \"code\" and \"message\"");
    audit_error ae{std::string(*code), std::string(*message), std::nullopt};
    if (const auto* category = json::get_string(*err, "category")) ae.category = std::string(*category);
    e.error = std::move(ae);
  }
  cap_lengths(e);
  return e;
}

result<audit_entry> parse_ndjson_line(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  auto v = json::parse(line, json::parse_limits{kMaxAuditLineBytes, 8});
  if (!v) return make_error(errc::invalid_params, "invalid audit line: " + v.err().message);
  return audit_entry_from_json(*v);
}

}  // namespace opentabs::audit
