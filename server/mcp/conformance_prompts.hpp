// Test mode only (`opentabs start --conformance-mode`): a prompt_service decorator that adds
// the prompts the official MCP conformance suite gets (test_simple_prompt,
// test_prompt_with_arguments, test_prompt_with_embedded_resource, test_prompt_with_image, and
// the 2026-07-28 test_input_required_result_prompt, which asks through an
// InputRequiredResult) in front of the real prompts, and completion values for
// test_prompt_with_arguments.  Every other name goes to the inner service unchanged.
#pragma once

#include "mcp/prompt_service.hpp"

namespace opentabs::mcp {

class conformance_prompts final : public prompt_service {
 public:
  explicit conformance_prompts(prompt_service& inner) : inner_(inner) {}

  std::vector<prompt_def> list_prompts() const override;
  net::awaitable<result<prompt_result>> get_prompt(std::string name, json::object arguments, json::object answers,
                                                   tools::call_options options) override;
  std::vector<std::string> question_keys(std::string_view name) const override;
  void register_completions(completion_registry& registry) override;
  bool asks_client(std::string_view name) const override;

  // The fixtures alone, in list order.
  static const std::vector<prompt_def>& fixtures();
  // A fixture's answer, or nullopt when `name` is not one (sans-I/O: the input fixture reads
  // the retry's answers from options.input).
  static std::optional<result<prompt_result>> fixture_answer(std::string_view name, const json::object& arguments,
                                                             const tools::call_options& options);

 private:
  prompt_service& inner_;
};

}  // namespace opentabs::mcp
