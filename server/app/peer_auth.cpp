#include "app/peer_auth.hpp"

#include "util/peer_proof.hpp"

namespace opentabs::app {

result<peer_auth::challenge_answer> peer_auth::challenge(std::string_view client_nonce, std::string_view client_tag,
                                                          std::string_view secret, clock::time_point now) {
  if (!peer_proof::is_nonce(client_nonce))
    return make_error(errc::invalid_request, "clientNonce must be " + std::to_string(peer_proof::kNonceChars) +
                                             " lowercase hex digits (32 random bytes)");
  if (secret.empty() || !peer_proof::proof_matches(client_tag, peer_proof::challenge_tag(secret, client_nonce)))
    return make_error(errc::denied, std::string(peer_proof::kChallengeTagHeader) +
                                        " is missing or not this clientNonce's tag under the secret in auth.json");
  drop_expired(now);
  std::erase_if(entries_, [&](const auto& kv) { return !kv.second.established && kv.second.client_nonce == client_nonce; });
  if (pending_count() >= limits_.max_pending) evict_oldest(false);
  auto server_nonce = peer_proof::new_nonce();
  auto proof = peer_proof::server_proof(secret, client_nonce, server_nonce);
  entries_[server_nonce] = entry{std::string(client_nonce), now, false};
  return challenge_answer{std::move(server_nonce), std::move(proof)};
}

bool peer_auth::accepts(std::string_view token, std::string_view secret, clock::time_point now) {
  auto cred = peer_proof::parse_credential_token(token);
  if (!cred) return false;
  auto it = entries_.find(cred->server_nonce);
  if (it == entries_.end()) return false;
  auto& e = it->second;
  if (!e.established && now - e.last_used > limits_.pending_ttl) return false;
  if (!peer_proof::proof_matches(cred->client_proof, peer_proof::client_proof(secret, e.client_nonce, it->first)))
    return false;
  e.last_used = now;
  if (!e.established) {
    if (established_count() >= limits_.max_established) evict_oldest(true);
    e.established = true;
  }
  return true;
}

std::size_t peer_auth::pending_count() const {
  std::size_t n = 0;
  for (const auto& [nonce, e] : entries_) n += e.established ? 0 : 1;
  return n;
}

std::size_t peer_auth::established_count() const { return entries_.size() - pending_count(); }

void peer_auth::drop_expired(clock::time_point now) {
  std::erase_if(entries_, [&](const auto& kv) { return !kv.second.established && now - kv.second.last_used > limits_.pending_ttl; });
}

void peer_auth::evict_oldest(bool established) {
  auto oldest = entries_.end();
  for (auto it = entries_.begin(); it != entries_.end(); ++it)
    if (it->second.established == established && (oldest == entries_.end() || it->second.last_used < oldest->second.last_used))
      oldest = it;
  if (oldest != entries_.end()) entries_.erase(oldest);
}

}  // namespace opentabs::app
