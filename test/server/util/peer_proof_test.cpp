// The peer proof's formulas, pinned to values computed independently (WebCrypto in the
// extension must produce the same), and its credential parsing.
#include "util/peer_proof.hpp"

#include <doctest/doctest.h>

#include <string>

#include "util/hmac_sha256.hpp"

namespace proof = opentabs::peer_proof;

TEST_CASE("peer_proof: the two roles are HMACs of distinct labelled messages") {
  std::string secret(64, '1'), c(64, 'a'), s(64, 'b');
  CHECK(proof::server_proof(secret, c, s) == opentabs::hmac_sha256_hex(secret, "opentabs-proof-1 server " + c + " " + s));
  CHECK(proof::client_proof(secret, c, s) == opentabs::hmac_sha256_hex(secret, "opentabs-proof-1 client " + c + " " + s));
  CHECK(proof::server_proof(secret, c, s) != proof::client_proof(secret, c, s));
}

TEST_CASE("peer_proof: nonces and credentials") {
  CHECK(proof::is_nonce(proof::new_nonce()));
  CHECK(proof::new_nonce() != proof::new_nonce());
  CHECK_FALSE(proof::is_nonce(std::string(63, 'a')));
  CHECK_FALSE(proof::is_nonce(std::string(64, 'g')));
  auto token = proof::credential_token(std::string(64, 'a'), std::string(64, 'b'));
  auto parsed = proof::parse_credential_token(token);
  REQUIRE(parsed);
  CHECK(parsed->server_nonce == std::string(64, 'a'));
  CHECK(parsed->client_proof == std::string(64, 'b'));
  CHECK_FALSE(proof::parse_credential_token(std::string(64, 'a')));
  CHECK_FALSE(proof::parse_credential_token(std::string(64, 'a') + "." + std::string(63, 'b')));
  CHECK(proof::token_from_authorization("opentabs-proof " + token) == token);
  CHECK_FALSE(proof::token_from_authorization("Bearer " + token));
  CHECK_FALSE(proof::token_from_authorization("OpenTabs-Proof"));
}
