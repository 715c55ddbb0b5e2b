// How arguments are shown to people (see shown_arguments.hpp).
#include "tools/shown_arguments.hpp"

#include <array>
#include <string_view>

#include "util/secret_shapes.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

namespace opentabs::tools {

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

}  // namespace opentabs::tools
