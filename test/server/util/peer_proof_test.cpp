// The peer proof's formulas, pinned to digests computed outside the project (`openssl dgst
// -sha256 -hmac`; the extension's WebCrypto code signs the same messages), and its
// credential parsing.
#include "util/peer_proof.hpp"

#include <doctest/doctest.h>

#include <string>


namespace proof = opentabs::peer_proof;

TEST_CASE("peer_proof: the two roles are HMACs of distinct labelled messages") {
  std::string secret(64, '1'), c(64, 'a'), s(64, 'b');
  CHECK(proof::server_proof(secret, c, s) == "656ae685bf8434fd76ca3e703a135a4dda0e1563721c2798d3cdf13081c0354c");
  CHECK(proof::client_proof(secret, c, s) == "519598f064e051b7c06206e05b6f9d58230c983a6b7bff10ae7207788720e77b");
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

TEST_CASE("peer_proof: caller_identity tells proof callers apart by their server nonce; bearer callers are one") {
  const std::string a(64, 'a'), b(64, 'b'), p(64, 'c');
  CHECK(proof::caller_identity("OpenTabs-Proof " + a + "." + p) == "proof " + a);
  CHECK(proof::caller_identity("opentabs-proof " + b + "." + p) == "proof " + b);
  CHECK(proof::caller_identity("OpenTabs-Proof " + a + "." + p) != proof::caller_identity("OpenTabs-Proof " + b + "." + p));
  CHECK(proof::caller_identity("Bearer abc") == "bearer");
  CHECK(proof::caller_identity("bearer xyz") == "bearer");
  CHECK(proof::caller_identity("OpenTabs-Proof nodot").empty());
  CHECK(proof::caller_identity("").empty());
  CHECK(proof::caller_identity("Basic dXNlcg==").empty());
}
