#include "app/http_security.hpp"

#include <cctype>

#include "util/peer_proof.hpp"
#include "util/strings.hpp"

namespace opentabs::app {

bool host_allowed(std::string_view host) {
  host = trim(host);
  if (host.empty()) return false;
  std::string_view name = host;
  std::string_view port;
  if (host.front() == '[') {
    auto close = host.find(']');
    if (close == std::string_view::npos) return false;
    name = host.substr(1, close - 1);
    auto rest = host.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return false;
      port = rest.substr(1);
    }
  } else if (auto colon = host.rfind(':'); colon != std::string_view::npos && host.find(':') == colon) {
    name = host.substr(0, colon);
    port = host.substr(colon + 1);
  }
  if (!port.empty() || (host.back() == ':')) {
    if (port.empty() || port.size() > 5) return false;
    for (char c : port)
      if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  auto lower = to_lower(name);
  return lower == "localhost" || lower == "127.0.0.1" || lower == "::1" || lower == "::ffff:127.0.0.1";
}

bool origin_allowed(std::string_view origin, bool present) {
  if (!present) return true;
  // Exactly one extension origin: repeated Origin fields arrive joined with ", ", and
  // "chrome-extension://x, https://evil" must not pass for the first of them.
  constexpr std::string_view scheme = "chrome-extension://";
  if (!starts_with(origin, scheme) || origin.size() == scheme.size()) return false;
  for (char c : origin.substr(scheme.size()))
    if (!std::isalnum(static_cast<unsigned char>(c))) return false;
  return true;
}

bool is_own_loopback_origin(std::string_view origin, std::uint16_t port) {
  if (port == 0) return false;
  auto p = std::to_string(port);
  for (const char* host : {"http://127.0.0.1:", "http://localhost:", "http://[::1]:"})
    if (iequals(origin, std::string(host) + p)) return true;
  return false;
}

bool bearer_matches(std::string_view header, std::string_view secret) {
  header = trim(header);
  if (header.size() < 7 || !iequals(header.substr(0, 7), "bearer ")) return false;
  return constant_time_equals(trim(header.substr(7)), secret);
}

ws_credentials check_ws_subprotocols(const std::vector<std::string>& offered, std::string_view secret,
                                     const std::function<bool(std::string_view token)>& proof_accepted) {
  ws_credentials out;
  for (const auto& p : offered) {
    if (std::string_view(p).starts_with(peer_proof::kSubprotocolPrefix)) {
      const auto token = std::string_view(p).substr(peer_proof::kSubprotocolPrefix.size());
      if (!out.authorized && proof_accepted && proof_accepted(token)) {
        out.authorized = true;
        if (auto c = peer_proof::parse_credential_token(token)) out.caller = "proof " + c->server_nonce;
      }
      continue;
    }
    if (!out.authorized && constant_time_equals(p, secret)) {
      out.authorized = true;
      out.caller = "bearer";
      continue;
    }
    if (p == "opentabs") continue;
    if (out.connection_id.empty() && !constant_time_equals(p, secret)) out.connection_id = p;
  }
  // An id is only trusted from an authorised client, and only if it is printable and short.
  if (!out.authorized || out.connection_id.size() > 128) out.connection_id.clear();
  for (char c : out.connection_id)
    if (static_cast<unsigned char>(c) < 0x21 || static_cast<unsigned char>(c) > 0x7e) {
      out.connection_id.clear();
      break;
    }
  return out;
}

}  // namespace opentabs::app
