// The conformance-mode prompts: the fixtures in front of the real prompts, their shapes,
// and the 2026-07-28 input fixture's two rounds.
#include <doctest/doctest.h>

#include "mcp/completion.hpp"
#include "mcp/conformance_prompts.hpp"

using namespace opentabs;
using namespace opentabs::mcp;

namespace {

json::object o(std::string_view text) { return *json::parse_object(text); }

// A real prompt service stand-in with one prompt.
struct one_prompt final : prompt_service {
  std::vector<prompt_def> list_prompts() const override { return {{"real", "", "a real prompt", {}}}; }
  std::vector<std::string> question_keys(std::string_view) const override { return {}; }
  net::awaitable<result<prompt_result>> get_prompt(std::string, json::object, json::object, tools::call_options) override {
    co_return prompt_result::text("", "real");
  }
  void register_completions(completion_registry& r) override {
    r.add(completion_ref_kind::prompt, "real", "x", [](const json::object&) -> net::awaitable<std::vector<completion_candidate>> { co_return std::vector<completion_candidate>{}; });
  }
  bool asks_client(std::string_view name) const override { return name == "real"; }
};

std::string text_of(const prompt_result& r, std::size_t i = 0) {
  return std::string(r.messages.at(i).at("content").at("text").as_string());
}

}  // namespace

TEST_CASE("fixtures are listed before the real prompts, each with a description") {
  one_prompt inner;
  conformance_prompts deco(inner);
  auto list = deco.list_prompts();
  REQUIRE(list.size() == conformance_prompts::fixtures().size() + 1);
  CHECK(list.front().name == "test_simple_prompt");
  CHECK(list.back().name == "real");
  for (const auto& p : list) CHECK_FALSE(p.description.empty());
  CHECK(deco.asks_client("real"));
  CHECK_FALSE(deco.asks_client("test_input_required_result_prompt"));
  completion_registry registry;
  deco.register_completions(registry);
  CHECK(registry.knows(completion_ref_kind::prompt, "real", "x"));
  CHECK(registry.knows(completion_ref_kind::prompt, "test_prompt_with_arguments", "arg1"));
}

TEST_CASE("fixture shapes: text, substituted arguments, an embedded resource, an image") {
  tools::call_options none;
  auto simple = *conformance_prompts::fixture_answer("test_simple_prompt", {}, none);
  CHECK(text_of(*simple) == "This is a simple prompt for testing.");
  auto args = *conformance_prompts::fixture_answer("test_prompt_with_arguments", o(R"({"arg1":"hello","arg2":"world"})"), none);
  CHECK(text_of(*args) == "Prompt with arguments: arg1='hello', arg2='world'");
  auto embedded = *conformance_prompts::fixture_answer("test_prompt_with_embedded_resource", o(R"({"resourceUri":"test://r"})"), none);
  CHECK(embedded->messages.at(0).at("content").at("type").as_string() == "resource");
  CHECK(embedded->messages.at(0).at("content").at("resource").at("uri").as_string() == "test://r");
  auto image = *conformance_prompts::fixture_answer("test_prompt_with_image", {}, none);
  CHECK(image->messages.at(0).at("content").at("mimeType").as_string() == "image/png");
  CHECK_FALSE(conformance_prompts::fixture_answer("real", {}, none).has_value());
}

TEST_CASE("the input fixture asks through an InputRequiredResult, then builds the prompt from the answer") {
  tools::call_options legacy;
  auto refused = *conformance_prompts::fixture_answer("test_input_required_result_prompt", {}, legacy);
  REQUIRE_FALSE(refused);
  CHECK(refused.err().kind == errc::invalid_params);

  tools::call_options first;
  auto round = std::make_shared<tools::input_round>();
  round->client_capabilities = o(R"({"elicitation":{}})");
  first.input = round;
  auto asked = *conformance_prompts::fixture_answer("test_input_required_result_prompt", {}, first);
  REQUIRE(asked);
  REQUIRE(asked->input_required);
  CHECK(asked->input_required->at("inputRequests").at("user_context").at("method").as_string() == "elicitation/create");

  tools::call_options retry;
  auto answered = std::make_shared<tools::input_round>(*round);
  answered->responses = json::value(o(R"({"user_context":{"action":"accept","content":{"context":"test context"}}})"));
  retry.input = answered;
  auto built = *conformance_prompts::fixture_answer("test_input_required_result_prompt", {}, retry);
  REQUIRE(built);
  CHECK_FALSE(built->input_required);
  CHECK(text_of(*built).find("test context") != std::string::npos);
}
