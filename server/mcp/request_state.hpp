// The requestState of a 2026-07-28 InputRequiredResult (multi round-trip requests): the
// server's note to itself that travels through the client and comes back on the retry.
// The client is an attacker as far as this string goes, so it is sealed: an HMAC-SHA256
// over its fields with a key drawn at random when the process starts (never stored, never
// sent), bound to what was asked (the tool, a digest of its arguments, the client's name),
// valid until an expiry, and redeemable once (redeemed tokens are remembered until they
// expire, in a bounded set).  Sans-I/O: the caller passes the time.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "json/json.hpp"
#include "tools/permission_askers.hpp"
#include "util/result.hpp"

namespace opentabs::mcp {

// What a sealed state is bound to and carries.  `subject` and `client` and `arguments_digest`
// must match on redemption; `prompt` and `round` are the server's own notes (which prompt
// the answer belongs to, how many rounds were asked).
struct request_binding {
  std::string subject;           // the tool the request calls
  std::string arguments_digest;  // arguments_digest(arguments) of the first request
  std::string client;            // the client's name (clientInfo.name)
  std::string prompt;            // an id the server chose for this question
  std::int64_t round = 1;
};

// arguments_digest(arguments): what a request_binding's arguments_digest is made of.
using tools::arguments_digest;

class request_state_seal {
 public:
  // How long a sealed state is honoured, and how many redeemed ones are remembered.
  static constexpr std::chrono::milliseconds default_ttl{10 * 60 * 1000};
  static constexpr std::size_t default_remembered = 4096;
  // Longest requestState accepted on a retry; sealed states are a few hundred bytes.
  static constexpr std::size_t max_state_bytes = 4096;

  explicit request_state_seal(std::chrono::milliseconds ttl = default_ttl, std::size_t remembered = default_remembered);

  // A sealed, opaque state for `b`, valid for the ttl from `now_ms`.
  std::string seal(const request_binding& b, std::int64_t now_ms);

  // The binding sealed in `state`, when it is genuine (its MAC holds), fresh, never redeemed
  // before and bound to `expected`'s subject, arguments and client; it is then redeemed.
  // Every refusal is errc::invalid_params with a message saying which rule failed and what
  // to do (call again without requestState to be asked again); no part of the state or
  // the key appears in it.
  result<request_binding> redeem(std::string_view state, const request_binding& expected, std::int64_t now_ms);

  std::size_t remembered() const { return redeemed_.size(); }
  std::chrono::milliseconds ttl() const { return ttl_; }

 private:
  void remember(const std::string& nonce, std::int64_t expires_ms, std::int64_t now_ms);

  std::string key_;
  std::chrono::milliseconds ttl_;
  std::size_t capacity_;
  // Redeemed nonces and their expiry.  When the set is full and nothing in it has expired,
  // the entry expiring first is dropped and every state expiring no later than it is refused
  // from then on (expiry_floor_): memory stays bounded and no state can be redeemed twice.
  std::map<std::string, std::int64_t> redeemed_;
  std::int64_t expiry_floor_ = 0;
};

}  // namespace opentabs::mcp
