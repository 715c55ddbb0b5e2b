// The peer proof (README "Security"): how the server and the clients we ship (extension,
// native host, stdio bridge) prove to each other that they know the shared secret without
// ever sending it to a program that has not proved it first.
//
//   client → GET /auth/challenge?clientNonce=<C>
//            X-OpenTabs-Challenge-Tag: TAG(C)                         (proves nothing
//                                                                      reusable: see below)
//   server → {"serverNonce": S, "serverProof": MAC("server", C, S)}    (proves the server)
//   client checks serverProof; only then does it send
//            Authorization: OpenTabs-Proof S.MAC("client", C, S)       (or, on /ws, the
//            subprotocol "opentabs-proof.S.MAC("client", C, S)")        proves the client)
//
// MAC(role, C, S) = hex HMAC-SHA256(secret, "opentabs-proof-1 <role> C S").  The two roles
// use different labels, so the challenge endpoint (which signs anything a caller sends) can
// never be used to make a client proof.  TAG(C) = hex HMAC-SHA256(secret,
// "opentabs-proof-1 challenge C"): only a holder of the secret may ask, so nobody without
// it can spend the server's challenge table or time (no shared budget to exhaust), and no
// request a web page can make (<img>, no-cors fetch: no custom header) reaches the
// endpoint.  A squatter that receives TAG(C) learns a value bound to C and to its own label:
// replayed, it re-asks the same one challenge and can never make a client proof.  C and S are 64 lowercase hex digits (32 random
// bytes).  The credential names S, which the server remembers only in memory: a program that
// takes the port after the server died can replay it against nothing.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace opentabs::peer_proof {

inline constexpr std::string_view kAuthorizationScheme = "OpenTabs-Proof";
inline constexpr std::string_view kSubprotocolPrefix = "opentabs-proof.";
inline constexpr std::string_view kChallengePath = "/auth/challenge";
inline constexpr std::string_view kChallengeTagHeader = "X-OpenTabs-Challenge-Tag";
inline constexpr std::size_t kNonceChars = 64;

// Exactly kNonceChars lowercase hex digits.
bool is_nonce(std::string_view text);
// A fresh random nonce.
std::string new_nonce();

std::string server_proof(std::string_view secret, std::string_view client_nonce, std::string_view server_nonce);
std::string client_proof(std::string_view secret, std::string_view client_nonce, std::string_view server_nonce);
std::string challenge_tag(std::string_view secret, std::string_view client_nonce);
// Constant-time comparison of a received proof with the expected one.
bool proof_matches(std::string_view received, std::string_view expected);

// The credential "<server nonce>.<client proof>" and its parts.
struct credential {
  std::string server_nonce;
  std::string client_proof;
};
std::string credential_token(std::string_view server_nonce, std::string_view client_proof);
std::optional<credential> parse_credential_token(std::string_view token);

// "OpenTabs-Proof <token>" (scheme case-insensitive) → the token; nullopt for anything else.
std::optional<std::string_view> token_from_authorization(std::string_view header);

// Who showed an Authorization header the server accepted, as far as the server can tell them
// apart: "proof <server nonce>" for an OpenTabs-Proof credential (the nonce is the server's,
// issued to that client's own challenge, so no other client has it), "bearer" for the shared
// secret (every bearer client is the same caller), "" for anything else.  Per-client state
// (MCP tasks, listen streams) is keyed by this and the client's chosen name together.
std::string caller_identity(std::string_view authorization_header);

}  // namespace opentabs::peer_proof
