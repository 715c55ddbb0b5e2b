#include "mcp/permission_prompt.hpp"

#include <array>

#include "util/secret_shapes.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

namespace opentabs::mcp {

namespace {

constexpr int kMaxShownDepth = 8;

constexpr std::array<std::string_view, 10> kSecretNames = {"password", "passwd", "secret", "token", "apikey",
                                                           "api_key", "authorization", "cookie", "credential", "session"};

bool looks_secret(std::string_view name) {
  auto lower = to_lower(name);
  for (auto s : kSecretNames)
    if (lower.find(s) != std::string::npos) return true;
  // "key" alone or as a suffix ("privateKey", "access_key"), not "keyboard" or "monkey_business".
  return lower == "key" || lower.ends_with("_key") || lower.ends_with("privatekey") || lower.ends_with("accesskey");
}

json::value redact_value(const json::value& v, int depth) {
  // Strings are shown whole: what follows a harmless first line is what runs.
  if (v.is_string()) return json::str(redact_secret_shapes(v.get_string()));
  if (depth >= kMaxShownDepth && (v.is_object() || v.is_array())) return json::str(v.is_object() ? "{…}" : "[…]");
  if (const auto* o = v.if_object()) {
    json::object out;
    for (const auto& kv : *o)
      out[redact_secret_shapes(kv.key())] = looks_secret(kv.key()) ? json::str("[redacted]") : redact_value(kv.value(), depth + 1);
    return out;
  }
  if (const auto* a = v.if_array()) {
    json::array out;
    for (const auto& item : *a) out.push_back(redact_value(item, depth + 1));
    return out;
  }
  return v;
}

json::object choice(std::string_view value, std::string_view title) {
  return json::object{{"const", json::str(value)}, {"title", json::str(title)}};
}

error bad_answer(std::string_view where, std::string_view why) {
  return make_error(errc::invalid_params, std::string(where) + " " + std::string(why));
}

}  // namespace

std::string shown_arguments(const json::object& arguments) {
  auto shown = json::dump(redact_arguments(arguments));
  if (shown.size() <= max_shown_argument_bytes) return shown;
  // Never cut silently: say how much there is, give its digest, and show both ends.
  const std::size_t part = max_shown_argument_bytes / 2;
  return "(" + std::to_string(shown.size()) + " bytes, SHA-256 " + sha256_hex(shown) +
         "; too long to show here in full: the OpenTabs side panel shows all of it; deny unless you expect this much) " +
         excerpt_for_error(shown.substr(0, part), part) + " … " + excerpt_for_error(shown.substr(shown.size() - part), part);
}

json::object redact_arguments(const json::object& arguments) { return redact_value(arguments, 0).as_object(); }

json::object permission_elicitation_params(const permission_question& q) {
  std::string message = "OpenTabs: allow the tool \"" + q.tool + "\"";
  if (!q.plugin.empty()) message += " (" + q.plugin + ")";
  if (!q.where.empty()) message += " on " + q.where;
  message += "?";
  if (q.arguments && !q.arguments->empty()) message += "\nArguments: " + shown_arguments(*q.arguments);
  json::object decision{{"type", "string"},
                        {"title", "Decision"},
                        {"description", "The same choices as the OpenTabs side panel"},
                        {"oneOf", json::array{choice("allow_once", "Allow once"), choice("always_allow", "Always allow this tool"),
                                              choice("deny", "Deny")}}};
  return json::object{{"mode", "form"},
                      {"message", json::str(message)},
                      {"requestedSchema", json::object{{"type", "object"},
                                                       {"properties", json::object{{"decision", std::move(decision)}}},
                                                       {"required", json::array{"decision"}}}}};
}

json::object permission_input_request(const permission_question& q) {
  return json::object{{"method", "elicitation/create"}, {"params", permission_elicitation_params(q)}};
}

result<permission_answer> read_permission_answer(const json::value* response, std::string_view where) {
  if (!response) return permission_answer::unanswered;
  const auto* r = response->if_object();
  if (!r) return bad_answer(where, "must be an ElicitResult object, got " + std::string(json::type_name(*response)));
  const auto* action = json::get_string(*r, "action");
  if (!action) return bad_answer(where, "must carry action \"accept\", \"decline\" or \"cancel\"");
  if (*action == "decline" || *action == "cancel") return permission_answer::deny;
  if (*action != "accept") return bad_answer(where, ".action must be \"accept\", \"decline\" or \"cancel\"");
  const auto* content = json::get_object(*r, "content");
  const auto* d = content ? json::get_string(*content, "decision") : nullptr;
  if (!d) return bad_answer(where, ".content.decision is required when the action is accept");
  if (*d == "allow_once") return permission_answer::allow_once;
  if (*d == "always_allow") return permission_answer::always_allow;
  if (*d == "deny") return permission_answer::deny;
  return bad_answer(where, ".content.decision must be \"allow_once\", \"always_allow\" or \"deny\"");
}

}  // namespace opentabs::mcp
