#include "util/peer_proof.hpp"

#include "util/hmac_sha256.hpp"
#include "util/random.hpp"
#include "util/strings.hpp"

namespace opentabs::peer_proof {

namespace {

std::string mac(std::string_view secret, std::string_view role, std::string_view client_nonce,
                std::string_view server_nonce) {
  std::string message = "opentabs-proof-1 ";
  message += role;
  message += ' ';
  message += client_nonce;
  message += ' ';
  message += server_nonce;
  return hmac_sha256_hex(secret, message);
}

bool is_lower_hex(std::string_view text, std::size_t length) {
  if (text.size() != length) return false;
  for (char c : text)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

}  // namespace

bool is_nonce(std::string_view text) { return is_lower_hex(text, kNonceChars); }

std::string new_nonce() { return random_hex(kNonceChars / 2); }

std::string server_proof(std::string_view secret, std::string_view client_nonce, std::string_view server_nonce) {
  return mac(secret, "server", client_nonce, server_nonce);
}

std::string client_proof(std::string_view secret, std::string_view client_nonce, std::string_view server_nonce) {
  return mac(secret, "client", client_nonce, server_nonce);
}

std::string challenge_tag(std::string_view secret, std::string_view client_nonce) {
  std::string message = "opentabs-proof-1 challenge ";
  message += client_nonce;
  return hmac_sha256_hex(secret, message);
}

bool proof_matches(std::string_view received, std::string_view expected) {
  return constant_time_equals(received, expected);
}

std::string credential_token(std::string_view server_nonce, std::string_view client_proof) {
  std::string token(server_nonce);
  token += '.';
  token += client_proof;
  return token;
}

std::optional<credential> parse_credential_token(std::string_view token) {
  auto dot = token.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  auto nonce = token.substr(0, dot);
  auto proof = token.substr(dot + 1);
  if (!is_nonce(nonce) || !is_lower_hex(proof, 64)) return std::nullopt;
  return credential{std::string(nonce), std::string(proof)};
}

std::optional<std::string_view> token_from_authorization(std::string_view header) {
  if (header.size() <= kAuthorizationScheme.size() + 1) return std::nullopt;
  if (!iequals(header.substr(0, kAuthorizationScheme.size()), kAuthorizationScheme) ||
      header[kAuthorizationScheme.size()] != ' ')
    return std::nullopt;
  return header.substr(kAuthorizationScheme.size() + 1);
}

std::string caller_identity(std::string_view authorization_header) {
  if (auto token = token_from_authorization(authorization_header)) {
    if (auto c = parse_credential_token(*token)) return "proof " + c->server_nonce;
    return {};
  }
  if (authorization_header.size() > 7 && iequals(authorization_header.substr(0, 7), "Bearer ")) return "bearer";
  return {};
}

}  // namespace opentabs::peer_proof
