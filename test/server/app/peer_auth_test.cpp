// The server's half of the peer proof: a challenge is answered with a proof only the secret
// makes, the client's credential is accepted only for a challenge of this table with the
// right client proof, and both tables stay bounded.
#include "app/peer_auth.hpp"

#include <doctest/doctest.h>

#include <string>

#include "util/peer_proof.hpp"

using opentabs::app::peer_auth;
namespace proof = opentabs::peer_proof;

namespace {

const std::string kSecret(64, 'c');
const peer_auth::clock::time_point t0{};

// A challenge as our clients ask it: the nonce and its tag under the secret.
opentabs::result<peer_auth::challenge_answer> ask(peer_auth& auth, const std::string& nonce, peer_auth::clock::time_point now) {
  return auth.challenge(nonce, proof::challenge_tag(kSecret, nonce), kSecret, now);
}

std::string client_credential(const std::string& secret, const std::string& client_nonce, const peer_auth::challenge_answer& a) {
  return proof::credential_token(a.server_nonce, proof::client_proof(secret, client_nonce, a.server_nonce));
}

}  // namespace

TEST_CASE("peer_auth: the server proof checks out and the client credential is accepted until the process ends") {
  peer_auth auth;
  auto nonce = proof::new_nonce();
  auto answer = ask(auth, nonce, t0);
  REQUIRE(answer);
  CHECK(proof::is_nonce(answer->server_nonce));
  CHECK(proof::proof_matches(answer->server_proof, proof::server_proof(kSecret, nonce, answer->server_nonce)));
  CHECK_FALSE(proof::proof_matches(answer->server_proof, proof::server_proof(std::string(64, 'd'), nonce, answer->server_nonce)));
  auto cred = client_credential(kSecret, nonce, *answer);
  CHECK(auth.accepts(cred, kSecret, t0 + std::chrono::seconds(1)));
  // Established: still accepted long after the challenge's own lifetime (the bridge reuses it).
  CHECK(auth.accepts(cred, kSecret, t0 + std::chrono::hours(5)));
  CHECK(auth.established_count() == 1);
}

TEST_CASE("peer_auth: refusals") {
  peer_auth auth;
  CHECK_FALSE(ask(auth, "short", t0));
  CHECK_FALSE(ask(auth, std::string(64, 'A'), t0));  // uppercase is not a nonce
  auto nonce = proof::new_nonce();
  auto answer = ask(auth, nonce, t0);
  REQUIRE(answer);
  // The wrong secret, the server's own proof replayed as a client proof, an unknown nonce.
  CHECK_FALSE(auth.accepts(client_credential(std::string(64, 'd'), nonce, *answer), kSecret, t0));
  CHECK_FALSE(auth.accepts(proof::credential_token(answer->server_nonce, answer->server_proof), kSecret, t0));
  CHECK_FALSE(auth.accepts(client_credential(kSecret, nonce, {proof::new_nonce(), ""}), kSecret, t0));
  CHECK_FALSE(auth.accepts("garbage", kSecret, t0));
  // An unanswered challenge expires.
  CHECK_FALSE(auth.accepts(client_credential(kSecret, nonce, *answer), kSecret, t0 + std::chrono::minutes(2)));
}

TEST_CASE("peer_auth: bounded tables, oldest first") {
  peer_auth auth({.max_pending = 2, .pending_ttl = std::chrono::seconds(60), .max_established = 1});
  auto n1 = proof::new_nonce(), n2 = proof::new_nonce(), n3 = proof::new_nonce();
  auto a1 = ask(auth, n1, t0);
  auto a2 = ask(auth, n2, t0 + std::chrono::seconds(1));
  auto a3 = ask(auth, n3, t0 + std::chrono::seconds(2));
  CHECK(auth.pending_count() == 2);
  CHECK_FALSE(auth.accepts(client_credential(kSecret, n1, *a1), kSecret, t0 + std::chrono::seconds(3)));
  CHECK(auth.accepts(client_credential(kSecret, n2, *a2), kSecret, t0 + std::chrono::seconds(3)));
  CHECK(auth.accepts(client_credential(kSecret, n3, *a3), kSecret, t0 + std::chrono::seconds(4)));
  CHECK(auth.established_count() == 1);
  // The least recently used credential gave way: its client must prove itself again.
  CHECK_FALSE(auth.accepts(client_credential(kSecret, n2, *a2), kSecret, t0 + std::chrono::seconds(5)));
}

TEST_CASE("peer_auth: only a caller with the secret's tag gets a challenge, so nobody else can spend the table") {
  peer_auth auth({.max_pending = 4, .pending_ttl = std::chrono::seconds(60), .max_established = 4});
  auto mine = proof::new_nonce();
  auto answer = ask(auth, mine, t0);
  REQUIRE(answer);
  // A flood without the tag, with a tag of another secret or of another nonce: refused as
  // denied, and none of it takes a place in the table.
  const std::string other_secret(64, 'd');
  for (int i = 0; i < 100; ++i) {
    auto n = proof::new_nonce();
    auto none = auth.challenge(n, "", kSecret, t0);
    REQUIRE_FALSE(none);
    CHECK(none.err().is(opentabs::errc::denied));
    CHECK_FALSE(auth.challenge(n, proof::challenge_tag(other_secret, n), kSecret, t0));
    CHECK_FALSE(auth.challenge(n, proof::challenge_tag(kSecret, mine), kSecret, t0));
  }
  CHECK(auth.pending_count() == 1);
  // A squatter that captured a client's tag replays it: that nonce keeps one unanswered
  // challenge, so the other client's challenge is still there to answer.
  auto captured = proof::new_nonce();
  for (int i = 0; i < 100; ++i) REQUIRE(ask(auth, captured, t0 + std::chrono::seconds(1)));
  CHECK(auth.pending_count() == 2);
  CHECK(auth.accepts(client_credential(kSecret, mine, *answer), kSecret, t0 + std::chrono::seconds(2)));
  // No secret configured: nothing is a tag.
  CHECK_FALSE(auth.challenge(mine, proof::challenge_tag("", mine), "", t0));
}
