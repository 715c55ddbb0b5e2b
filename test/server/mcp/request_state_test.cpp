// The sealed requestState of 2026-07-28 InputRequiredResults: genuine, bound, fresh, single-use.
#include <doctest/doctest.h>

#include "mcp/request_state.hpp"
#include "util/base64.hpp"

using namespace opentabs;
using namespace opentabs::mcp;

namespace {

constexpr std::int64_t kNow = 1'800'000'000'000;

request_binding binding() {
  return request_binding{"fixture-notes_create_note", arguments_digest(json::object{{"title", "x"}}), "claude-code", "prompt-1", 1};
}

std::string refusal_of(request_state_seal& seal, std::string_view state, const request_binding& b, std::int64_t now = kNow) {
  auto r = seal.redeem(state, b, now);
  REQUIRE_FALSE(r);
  CHECK(r.err().is(errc::invalid_params));
  CHECK(r.err().message.find("params.requestState") == 0);
  return r.err().message;
}

}  // namespace

TEST_CASE("a sealed state redeems once to the binding it was sealed with") {
  request_state_seal seal;
  auto state = seal.seal(binding(), kNow);
  auto r = seal.redeem(state, binding(), kNow + 1000);
  REQUIRE(r);
  CHECK(r->prompt == "prompt-1");
  CHECK(r->round == 1);
  CHECK(refusal_of(seal, state, binding(), kNow + 2000).find("already used") != std::string::npos);
}

TEST_CASE("an altered, foreign or malformed state is refused as not issued here, without echoing it") {
  request_state_seal seal, other;
  auto state = seal.seal(binding(), kNow);
  CHECK(refusal_of(seal, state + "-TAMPERED", binding()).find("not a state this server issued") != std::string::npos);
  CHECK(refusal_of(seal, other.seal(binding(), kNow), binding()).find("not a state this server issued") != std::string::npos);
  CHECK(refusal_of(seal, "no-dot-at-all", binding()).find("not a state this server issued") != std::string::npos);
  // The payload re-encoded with another round keeps no valid MAC.
  auto dot = state.rfind('.');
  auto payload = *decode_base64(state.substr(0, dot));
  auto forged_payload = payload.replace(payload.find("\"r\":1"), 5, "\"r\":4");
  auto message = refusal_of(seal, encode_base64(forged_payload) + state.substr(dot), binding());
  CHECK(message.find(state.substr(dot + 1)) == std::string::npos);
  CHECK(refusal_of(seal, std::string(request_state_seal::max_state_bytes + 1, 'a'), binding()).find("longer") != std::string::npos);
  // The genuine state still works after all that.
  CHECK(seal.redeem(state, binding(), kNow));
}

TEST_CASE("a state is bound to its tool, its arguments and its client") {
  request_state_seal seal;
  auto state = seal.seal(binding(), kNow);
  auto other_tool = binding();
  other_tool.subject = "fixture-notes_delete_note";
  CHECK(refusal_of(seal, state, other_tool).find("different tool") != std::string::npos);
  auto other_args = binding();
  other_args.arguments_digest = arguments_digest(json::object{{"title", "y"}});
  CHECK(refusal_of(seal, state, other_args).find("different arguments") != std::string::npos);
  auto other_client = binding();
  other_client.client = "someone-else";
  CHECK(refusal_of(seal, state, other_client).find("different client") != std::string::npos);
  CHECK(seal.redeem(state, binding(), kNow));
}

TEST_CASE("a state expires after the ttl") {
  request_state_seal seal(std::chrono::milliseconds(5000));
  auto state = seal.seal(binding(), kNow);
  CHECK(refusal_of(seal, state, binding(), kNow + 5000).find("expired") != std::string::npos);
  CHECK(seal.redeem(seal.seal(binding(), kNow), binding(), kNow + 4999));
}

TEST_CASE("the redeemed set stays bounded and never lets a state redeem twice") {
  request_state_seal seal(std::chrono::milliseconds(60'000), 3);
  std::vector<std::string> states;
  for (int i = 0; i < 5; ++i) states.push_back(seal.seal(binding(), kNow + i));
  for (const auto& s : states) REQUIRE(seal.redeem(s, binding(), kNow + 10));
  CHECK(seal.remembered() <= 3);
  for (const auto& s : states) CHECK_FALSE(seal.redeem(s, binding(), kNow + 20));
  // A state sealed later than the dropped ones still redeems.
  CHECK(seal.redeem(seal.seal(binding(), kNow + 30), binding(), kNow + 40));
}
