#include "mcp/conformance_prompts.hpp"

#include "mcp/completion.hpp"

namespace opentabs::mcp {

namespace {

// The same 1x1 PNG as the tool fixtures (spec/mcp.md §7).
constexpr std::string_view kPng = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgaPgPAAIDAYAkYfWXAAAAAElFTkSuQmCC";
constexpr std::string_view kInputPrompt = "test_input_required_result_prompt";
constexpr std::string_view kInputKey = "user_context";

json::object user(json::object content) { return json::object{{"role", "user"}, {"content", std::move(content)}}; }
json::object text(std::string_view t) { return json::object{{"type", "text"}, {"text", json::str(t)}}; }

prompt_result messages(json::array list) {
  prompt_result r;
  r.messages = std::move(list);
  return r;
}

std::string arg(const json::object& arguments, std::string_view name) {
  const auto* v = json::get_string(arguments, name);
  return v ? std::string(*v) : std::string();
}

// test_input_required_result_prompt: asks for the context until the retry brings it.
result<prompt_result> input_fixture(const tools::call_options& options) {
  if (!options.input) return make_error(errc::invalid_params, "Prompt " + std::string(kInputPrompt) + " asks through an InputRequiredResult: get it with protocol revision 2026-07-28");
  const json::object* responses = options.input->responses ? options.input->responses->if_object() : nullptr;
  const json::value* answer = responses ? responses->if_contains(kInputKey) : nullptr;
  if (!answer) {
    json::object question{{"method", "elicitation/create"},
                          {"params", json::object{{"mode", "form"},
                                                  {"message", "What context should the prompt use?"},
                                                  {"requestedSchema", json::object{{"type", "object"},
                                                                                   {"properties", json::object{{"context", json::object{{"type", "string"}}}}},
                                                                                   {"required", json::array{"context"}}}}}}};
    prompt_result r;
    r.input_required = json::object{{"inputRequests", json::object{{kInputKey, std::move(question)}}}};
    return r;
  }
  const auto* content = answer->is_object() ? json::get_object(answer->get_object(), "content") : nullptr;
  const auto* context = content ? json::get_string(*content, "context") : nullptr;
  if (!context) return make_error(errc::invalid_params, "params.inputResponses.user_context must be an accepted ElicitResult with content.context");
  return prompt_result::text("", "Prompt built with the context: " + std::string(*context));
}

}  // namespace

const std::vector<prompt_def>& conformance_prompts::fixtures() {
  static const std::vector<prompt_def> list{
      {"test_simple_prompt", "", "Conformance fixture: a simple prompt without arguments", {}},
      {"test_prompt_with_arguments", "", "Conformance fixture: a prompt with two required arguments",
       {{"arg1", "First test argument", true}, {"arg2", "Second test argument", true}}},
      {"test_prompt_with_embedded_resource", "", "Conformance fixture: a prompt embedding a resource",
       {{"resourceUri", "URI of the resource to embed", true}}},
      {"test_prompt_with_image", "", "Conformance fixture: a prompt with an image", {}},
      {std::string(kInputPrompt), "", "Conformance fixture: asks the person for context through an InputRequiredResult", {}},
  };
  return list;
}

std::optional<result<prompt_result>> conformance_prompts::fixture_answer(std::string_view name, const json::object& arguments,
                                                                        const tools::call_options& options) {
  if (name == "test_simple_prompt") return result<prompt_result>(prompt_result::text("", "This is a simple prompt for testing."));
  if (name == "test_prompt_with_arguments")
    return result<prompt_result>(prompt_result::text("", "Prompt with arguments: arg1='" + arg(arguments, "arg1") + "', arg2='" + arg(arguments, "arg2") + "'"));
  if (name == "test_prompt_with_embedded_resource")
    return result<prompt_result>(messages(json::array{
        user(json::object{{"type", "resource"},
                          {"resource", json::object{{"uri", json::str(arg(arguments, "resourceUri"))},
                                                    {"mimeType", "text/plain"},
                                                    {"text", "Embedded resource content for testing."}}}}),
        user(text("Please process the embedded resource above."))}));
  if (name == "test_prompt_with_image")
    return result<prompt_result>(messages(json::array{user(json::object{{"type", "image"}, {"data", json::str(kPng)}, {"mimeType", "image/png"}}),
                                                      user(text("Please analyze the image above."))}));
  if (name == kInputPrompt) return input_fixture(options);
  return std::nullopt;
}

std::vector<prompt_def> conformance_prompts::list_prompts() const {
  auto list = fixtures();
  auto real = inner_.list_prompts();
  list.insert(list.end(), real.begin(), real.end());
  return list;
}

net::awaitable<result<prompt_result>> conformance_prompts::get_prompt(std::string name, json::object arguments, json::object answers,
                                                                      tools::call_options options) {
  if (auto answer = fixture_answer(name, arguments, options)) co_return std::move(*answer);
  co_return co_await inner_.get_prompt(std::move(name), std::move(arguments), std::move(answers), std::move(options));
}

std::vector<std::string> conformance_prompts::question_keys(std::string_view name) const { return inner_.question_keys(name); }

void conformance_prompts::register_completions(completion_registry& registry) {
  inner_.register_completions(registry);
  for (std::string argument : {"arg1", "arg2"})
    registry.add(completion_ref_kind::prompt, "test_prompt_with_arguments", argument, [](const json::object&) -> net::awaitable<std::vector<completion_candidate>> {
      co_return std::vector<completion_candidate>{{"paris", "Paris"}, {"park", "Park"}, {"party", "Party"}, {"test value", "Test value"}};
    });
}

bool conformance_prompts::asks_client(std::string_view name) const { return name != kInputPrompt && inner_.asks_client(name); }

}  // namespace opentabs::mcp
