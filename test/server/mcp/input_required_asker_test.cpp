// The permission question across a 2026-07-28 round trip: the InputRequiredResult's fields,
// and what a retry brings back — the question and round its sealed requestState names, and
// the answer in its inputResponses — or why it is refused.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "mcp/input_required_asker.hpp"
#include "mcp/permission_prompt.hpp"

using namespace opentabs;
using namespace opentabs::mcp;

namespace {

// A question about notes_create (only its name and plugin are shown or bound).
tools::tool_def notes_create() {
  tools::tool_def t;
  t.name = "notes_create";
  t.plugin = "notes";
  return t;
}

struct rig {
  request_state_seal seal{std::chrono::minutes(10)};
  tools::tool_def tool = notes_create();
  json::object args{{"title", "Groceries"}};
  tools::permission_question q{tool, args, "", tools::arguments_digest(args)};

  // A request of client `client` carrying `state` and `responses` (JSON text, "" for none).
  input_required_asker request(std::string client, std::optional<std::string> state, std::string_view responses) {
    auto input = std::make_shared<tools::input_round>();
    input->client = std::move(client);
    input->request_state = std::move(state);
    if (!responses.empty()) input->responses = json::parse(responses).value();
    return input_required_asker(input, seal);
  }
};

std::string state_of(const json::object& input_request) { return std::string(*json::get_string(input_request, "requestState")); }

}  // namespace

TEST_CASE("a first request brings nothing; the input request holds the form and a sealed state for the question and round") {
  rig r;
  auto first = r.request("claude-code", std::nullopt, "");
  auto brought = first.bring(r.q);
  REQUIRE(brought);
  CHECK(brought->prompt.empty());
  const auto asked = first.input_request(r.q, "prompt-1", 2);
  const auto* requests = json::get_object(asked, "inputRequests");
  REQUIRE(requests);
  CHECK(*json::get_string(requests->at(permission_input_key).as_object(), "method") == "elicitation/create");
  CHECK(first.patience() == std::chrono::minutes(10));

  auto retry = r.request("claude-code", state_of(asked), R"({"opentabs_permission":{"action":"accept","content":{"decision":"deny"}}})");
  auto back = retry.bring(r.q);
  REQUIRE(back);
  CHECK(back->prompt == "prompt-1");
  CHECK(back->round == 2);
  REQUIRE(back->answer);
  CHECK(*back->answer == tools::permission_answer::deny);
  // Redeemable once.
  auto again = r.request("claude-code", state_of(asked), "").bring(r.q);
  REQUIRE_FALSE(again);
  CHECK(again.err().is(errc::invalid_params));
}

TEST_CASE("a retry with no answer asks again; a malformed answer is an error the caller reports when it matters") {
  rig r;
  const auto asked = r.request("claude-code", std::nullopt, "").input_request(r.q, "prompt-1", 1);
  auto silent = r.request("claude-code", state_of(asked), "").bring(r.q);
  REQUIRE(silent);
  CHECK(*silent->answer == tools::permission_answer::unanswered);

  const auto asked2 = r.request("claude-code", std::nullopt, "").input_request(r.q, "prompt-2", 1);
  auto malformed = r.request("claude-code", state_of(asked2), "[1]").bring(r.q);
  REQUIRE(malformed);  // the question is still known: the side panel may have decided it
  REQUIRE_FALSE(malformed->answer);
  CHECK(malformed->answer.err().message.find("params.inputResponses must be an object") == 0);
}

TEST_CASE("what no question of this server asked for is refused: answers without a state, a forged state, another client's") {
  rig r;
  auto unasked = r.request("claude-code", std::nullopt, R"({"opentabs_permission":{"action":"decline"}})").bring(r.q);
  REQUIRE_FALSE(unasked);
  CHECK(unasked.err().message.find("params.inputResponses answers no question") == 0);
  auto forged = r.request("claude-code", std::string("forged"), "").bring(r.q);
  REQUIRE_FALSE(forged);
  CHECK(forged.err().is(errc::invalid_params));
  const auto asked = r.request("claude-code", std::nullopt, "").input_request(r.q, "prompt-1", 1);
  auto other = r.request("cursor", state_of(asked), "").bring(r.q);
  REQUIRE_FALSE(other);
  CHECK(other.err().is(errc::invalid_params));
}
