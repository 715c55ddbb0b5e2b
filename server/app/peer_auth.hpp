// The server's half of the peer proof (util/peer_proof.hpp): answers challenges with the
// server's proof and remembers, in memory only, the challenges a client has answered with its
// own proof, so that client's credential ("<server nonce>.<client proof>") is accepted until
// this process ends.  A program that takes the port after the server died therefore learns
// nothing it could replay.  Only a caller showing the challenge tag (peer_proof.hpp) gets a
// challenge, so only holders of the secret fill the tables; one client nonce holds at most
// one unanswered challenge, so a tag replayed by a squatter cannot crowd out other clients.
// Both tables are bounded: the oldest unanswered challenge and the least recently used
// credential give way first.  Time is passed in (no sleeping in tests).
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>

#include "util/result.hpp"

namespace opentabs::app {

class peer_auth {
 public:
  using clock = std::chrono::steady_clock;

  struct limits {
    std::size_t max_pending = 256;
    clock::duration pending_ttl = std::chrono::seconds(60);
    std::size_t max_established = 1024;
  };
  struct challenge_answer {
    std::string server_nonce;
    std::string server_proof;
  };

  peer_auth() = default;
  explicit peer_auth(limits l) : limits_(l) {}

  // A challenge from a client: error "invalid_request" unless `client_nonce` is a nonce,
  // "denied" unless `client_tag` is its challenge tag under `secret`.  A client nonce asked
  // again replaces its earlier unanswered challenge.
  result<challenge_answer> challenge(std::string_view client_nonce, std::string_view client_tag, std::string_view secret,
                                     clock::time_point now);
  // Whether `token` answers a challenge of this process with the right client proof.
  bool accepts(std::string_view token, std::string_view secret, clock::time_point now);

  std::size_t pending_count() const;
  std::size_t established_count() const;

 private:
  struct entry {
    std::string client_nonce;
    clock::time_point last_used;
    bool established = false;
  };
  void drop_expired(clock::time_point now);
  void evict_oldest(bool established);

  limits limits_;
  std::unordered_map<std::string, entry> entries_;  // by server nonce
};

}  // namespace opentabs::app
