#include "mcp/request_state.hpp"

#include <algorithm>

#include "util/base64.hpp"
#include "util/hmac_sha256.hpp"
#include "util/random.hpp"
#include "util/strings.hpp"

namespace opentabs::mcp {

namespace {

error refused(std::string_view why) {
  return make_error(errc::invalid_params, "params.requestState " + std::string(why) +
                                              "; call the tool again without inputResponses and requestState to be asked again");
}

}  // namespace

request_state_seal::request_state_seal(std::chrono::milliseconds ttl, std::size_t remembered)
    : key_(random_hex(32)), ttl_(ttl), capacity_(remembered == 0 ? 1 : remembered) {}

std::string request_state_seal::seal(const request_binding& b, std::int64_t now_ms) {
  json::object payload{{"n", json::str(random_hex(16))},
                       {"s", json::str(b.subject)},
                       {"a", json::str(b.arguments_digest)},
                       {"c", json::str(b.client)},
                       {"p", json::str(b.prompt)},
                       {"r", b.round},
                       {"e", now_ms + ttl_.count()}};
  auto body = encode_base64(json::dump(payload));
  return body + "." + hmac_sha256_hex(key_, body);
}

result<request_binding> request_state_seal::redeem(std::string_view state, const request_binding& expected, std::int64_t now_ms) {
  if (state.size() > max_state_bytes) return refused("is longer than any state this server issues");
  auto dot = state.rfind('.');
  if (dot == std::string_view::npos) return refused("is not a state this server issued (it was altered or forged)");
  auto body = state.substr(0, dot);
  if (!constant_time_equals(state.substr(dot + 1), hmac_sha256_hex(key_, body)))
    return refused("is not a state this server issued (it was altered or forged, or the server restarted since)");
  // The MAC holds, so the payload is ours; its shape is checked anyway.
  auto text = decode_base64(body);
  auto payload = text ? json::parse_object(*text) : result<json::object>(make_error(errc::invalid_params, ""));
  if (!payload) return refused("is not a state this server issued");
  const auto* nonce = json::get_string(*payload, "n");
  const auto* subject = json::get_string(*payload, "s");
  const auto* digest = json::get_string(*payload, "a");
  const auto* client = json::get_string(*payload, "c");
  const auto* prompt = json::get_string(*payload, "p");
  auto round = json::get_int(*payload, "r");
  auto expires = json::get_int(*payload, "e");
  if (!nonce || !subject || !digest || !client || !prompt || !round || !expires) return refused("is not a state this server issued");
  if (*expires <= now_ms || *expires <= expiry_floor_) return refused("has expired");
  if (redeemed_.count(std::string(*nonce))) return refused("was already used (each state answers one retry)");
  if (*subject != expected.subject) return refused("belongs to a different tool");
  if (*digest != expected.arguments_digest) return refused("belongs to a call with different arguments");
  if (*client != expected.client) return refused("belongs to a different client");
  remember(std::string(*nonce), *expires, now_ms);
  return request_binding{std::string(*subject), std::string(*digest), std::string(*client), std::string(*prompt), *round};
}

void request_state_seal::remember(const std::string& nonce, std::int64_t expires_ms, std::int64_t now_ms) {
  if (redeemed_.size() >= capacity_) std::erase_if(redeemed_, [now_ms](const auto& kv) { return kv.second <= now_ms; });
  while (redeemed_.size() >= capacity_) {
    auto first = redeemed_.begin();
    for (auto it = redeemed_.begin(); it != redeemed_.end(); ++it)
      if (it->second < first->second) first = it;
    expiry_floor_ = std::max(expiry_floor_, first->second);
    redeemed_.erase(first);
  }
  redeemed_.emplace(nonce, expires_ms);
}

}  // namespace opentabs::mcp
