#include "mcp/conformance_tools.hpp"

#include <algorithm>
#include <chrono>

#include "net/event.hpp"
#include "util/clock.hpp"

namespace opentabs::mcp {

namespace {

// A 1x1 RGB PNG and four silent 16-bit mono samples at 8 kHz (spec/mcp.md §7).
constexpr std::string_view kPng = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgaPgPAAIDAYAkYfWXAAAAAElFTkSuQmCC";
constexpr std::string_view kWav = "UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQgAAAAAAAAAAAAAAA==";
// The fixtures pace their notifications like the reference server does.
constexpr auto kStep = std::chrono::milliseconds(50);

json::object no_args() { return json::object{{"type", "object"}, {"properties", json::object{}}, {"additionalProperties", false}}; }

tools::listed_tool fixture(std::string name, std::string description, json::object schema = no_args()) {
  return tools::listed_tool{std::move(name), std::move(description), std::move(schema), std::string(conformance_tools::plugin_name)};
}

json::object image_block() { return json::object{{"type", "image"}, {"data", json::str(kPng)}, {"mimeType", "image/png"}}; }

// ---- input-required fixtures (shapes from the suite's scenario descriptions) ----

json::object elicit(std::string_view message, std::string_view field, std::string_view type) {
  return json::object{{"method", "elicitation/create"},
                      {"params", json::object{{"mode", "form"},
                                              {"message", json::str(message)},
                                              {"requestedSchema", json::object{{"type", "object"},
                                                                               {"properties", json::object{{field, json::object{{"type", json::str(type)}}}}},
                                                                               {"required", json::array{json::str(field)}}}}}}};
}

json::object sample(std::string_view question, int max_tokens) {
  json::object message{{"role", "user"}, {"content", json::object{{"type", "text"}, {"text", json::str(question)}}}};
  return json::object{{"method", "sampling/createMessage"}, {"params", json::object{{"messages", json::array{message}}, {"maxTokens", max_tokens}}}};
}

json::object list_roots() { return json::object{{"method", "roots/list"}, {"params", json::object{}}}; }

// The capability an input request needs from the client.
std::string_view capability_of(const json::object& request) {
  const auto* method = json::get_string(request, "method");
  if (method && *method == "sampling/createMessage") return "sampling";
  if (method && *method == "roots/list") return "roots";
  return "elicitation";
}

tools::call_result input_required(json::object requests, std::optional<std::string> state = std::nullopt) {
  tools::call_result r;
  r.input_required = json::object{{"inputRequests", std::move(requests)}};
  if (state) (*r.input_required)["requestState"] = json::str(*state);
  return r;
}

// ---- 2025-11-25 elicitation fixtures (elicitation/create on the call's stream) ----

json::object typed(std::string_view type, std::string_view description) {
  return json::object{{"type", json::str(type)}, {"description", json::str(description)}};
}

json::object form(std::string message, json::object properties, json::array required = {}) {
  return json::object{{"message", json::str(message)},
                      {"requestedSchema", json::object{{"type", "object"}, {"properties", std::move(properties)}, {"required", std::move(required)}}}};
}

json::array titled(std::initializer_list<std::pair<std::string_view, std::string_view>> options) {
  json::array list;
  for (auto [value, title] : options) list.push_back(json::object{{"const", json::str(value)}, {"title", json::str(title)}});
  return list;
}

json::object elicitation_fixture_params(std::string_view name, const json::object& arguments) {
  if (name == "test_elicitation") {
    const auto* message = json::get_string(arguments, "message");
    return form(message ? std::string(*message) : std::string("Please provide your information"),
                json::object{{"username", typed("string", "User's response")}, {"email", typed("string", "User's email address")}},
                json::array{"username", "email"});
  }
  if (name == "test_elicitation_sep1034_defaults") {
    auto with_default = [](json::object o, json::value d) {
      o["default"] = std::move(d);
      return o;
    };
    auto status = with_default(typed("string", "User status"), "active");
    status["enum"] = json::array{"active", "inactive", "pending"};
    return form("Test client default value handling - please accept with defaults",
                json::object{{"name", with_default(typed("string", "User name"), "John Doe")},
                             {"age", with_default(typed("integer", "User age"), 30)},
                             {"score", with_default(typed("number", "User score"), 95.5)},
                             {"status", std::move(status)},
                             {"verified", with_default(typed("boolean", "Verification status"), true)}});
  }
  // test_elicitation_sep1330_enums: the five enum shapes.
  json::array options{"option1", "option2", "option3"};
  return form("Test enum schema variants",
              json::object{{"untitledSingle", json::object{{"type", "string"}, {"enum", options}}},
                           {"titledSingle", json::object{{"type", "string"},
                                                         {"oneOf", titled({{"value1", "First Option"}, {"value2", "Second Option"}, {"value3", "Third Option"}})}}},
                           {"legacyEnum", json::object{{"type", "string"},
                                                       {"enum", json::array{"opt1", "opt2", "opt3"}},
                                                       {"enumNames", json::array{"Option One", "Option Two", "Option Three"}}}},
                           {"untitledMulti", json::object{{"type", "array"}, {"items", json::object{{"type", "string"}, {"enum", options}}}}},
                           {"titledMulti", json::object{{"type", "array"},
                                                        {"items", json::object{{"anyOf", titled({{"value1", "First Choice"}, {"value2", "Second Choice"},
                                                                                                 {"value3", "Third Choice"}})}}}}}});
}

tools::call_result bad_input(std::string text) { return tools::call_result::text(std::move(text), true, errc::invalid_params); }

tools::call_result blocks(json::array content, bool is_error = false) {
  tools::call_result r;
  r.content = std::move(content);
  r.is_error = is_error;
  if (is_error) r.failure = errc::tool_failed;
  return r;
}

}  // namespace

conformance_tools::conformance_tools(asio::any_io_executor ex, tools::tool_service& inner, tools::server_events& events)
    : ex_(std::move(ex)), inner_(inner), events_(events) {}

const std::vector<tools::listed_tool>& conformance_tools::fixtures() {
  static const std::vector<tools::listed_tool> list = [] {
    // The scenario's schema (SEP-1613 and SEP-2106): every keyword must come back in
    // tools/list as it was given.
    json::object schema_2020 = *json::parse_object(R"({
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "$defs": {"address": {"$anchor": "addressDef", "type": "object",
                            "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
      "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"},
                     "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                     "phone": {"type": "string"}, "email": {"type": "string"}},
      "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
      "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
      "then": {"required": ["phone"]},
      "else": {"required": ["email"]},
      "additionalProperties": false})");
    std::vector<tools::listed_tool> list{
        fixture("test_simple_text", "Conformance fixture: returns a simple text response"),
        fixture("test_image_content", "Conformance fixture: returns an image content block"),
        fixture("test_audio_content", "Conformance fixture: returns an audio content block"),
        fixture("test_embedded_resource", "Conformance fixture: returns an embedded resource"),
        fixture("test_multiple_content_types", "Conformance fixture: returns text, image and resource blocks"),
        fixture("test_tool_with_logging", "Conformance fixture: logs three info messages while running"),
        fixture("test_tool_with_progress", "Conformance fixture: reports progress 0, 50 and 100 of 100"),
        fixture("test_error_handling", "Conformance fixture: always returns an isError result"),
        // 2026-07-28 (server-stateless): logs like test_tool_with_logging, and a tool-set
        // change for subscriptions/listen.
        fixture("test_logging_tool", "Conformance fixture: logs three info messages while running"),
        fixture("test_trigger_tool_change", "Conformance fixture: announces a tool list change"),
        // 2026-07-28 (http-custom-header-server-validation): a parameter mirrored into the
        // Mcp-Param-Region header.
        fixture("test_custom_header", "Conformance fixture: echoes its region parameter, which clients mirror into Mcp-Param-Region",
                json::object{{"type", "object"},
                             {"properties", json::object{{"region", json::object{{"type", "string"}, {"x-mcp-header", "Region"}}},
                                                         {"query", json::object{{"type", "string"}}}}},
                             {"required", json::array{"region"}}}),
        // 2026-07-28 (input-required-result-*, no-independent-requests-on-stream).
        fixture("test_input_required_result_elicitation", "Conformance fixture: asks the user's name through an InputRequiredResult"),
        fixture("test_input_required_result_sampling", "Conformance fixture: asks the client's model a question through an InputRequiredResult"),
        fixture("test_input_required_result_list_roots", "Conformance fixture: asks the client's roots through an InputRequiredResult"),
        fixture("test_input_required_result_request_state", "Conformance fixture: asks for a confirmation with a sealed requestState"),
        fixture("test_input_required_result_multiple_inputs", "Conformance fixture: asks an elicitation, a sampling and the roots at once"),
        fixture("test_input_required_result_multi_round", "Conformance fixture: asks two questions in two rounds"),
        fixture("test_input_required_result_tampered_state", "Conformance fixture: refuses a requestState that was altered"),
        fixture("test_input_required_result_capabilities", "Conformance fixture: asks only what the client declared it can answer"),
        fixture("test_streaming_elicitation", "Conformance fixture: asks the user's name (never as a request on the stream)"),
        // 2025-11-25 (tools-call-elicitation, elicitation-sep1034-defaults, elicitation-sep1330-enums).
        fixture("test_elicitation", "Conformance fixture: asks the user through elicitation/create",
                json::object{{"type", "object"},
                             {"properties", json::object{{"message", json::object{{"type", "string"}, {"description", "The message to show the user"}}}}},
                             {"required", json::array{"message"}}}),
        fixture("test_elicitation_sep1034_defaults", "Conformance fixture: elicitation/create with a default for every primitive type"),
        fixture("test_elicitation_sep1330_enums", "Conformance fixture: elicitation/create with the five enum schema shapes"),
        // 2025-11-25 (tools-call-sampling): sampling/createMessage on the call's stream.
        fixture("test_sampling", "Conformance fixture: asks the client's model through sampling/createMessage",
                json::object{{"type", "object"},
                             {"properties", json::object{{"prompt", json::object{{"type", "string"}, {"description", "The prompt to send to the LLM"}}}}},
                             {"required", json::array{"prompt"}}}),
        fixture("json_schema_2020_12_tool", "Conformance fixture: JSON Schema 2020-12 input schema passed through verbatim", std::move(schema_2020)),
        // 2026-07-28 (server-stateless): a tool that needs the sampling capability.
        fixture("test_missing_capability", "Conformance fixture: needs the client's sampling capability"),
    };
    // The tasks extension (tasks-* scenarios; traits_of says which may become tasks).
    auto string_arg = [](std::string_view key) {
      return json::object{{"type", "object"}, {"properties", json::object{{key, json::object{{"type", "string"}}}}}};
    };
    auto task_fixture = [&list](std::string name, std::string description, json::object schema) {
      list.push_back(fixture(std::move(name), std::move(description), std::move(schema)));
    };
    task_fixture("greet", "Conformance fixture: greets {name} at once (never a task)", string_arg("name"));
    task_fixture("slow_compute", "Conformance fixture: computes for {seconds} seconds (0-300), then answers with its label",
                 json::object{{"type", "object"},
                              {"properties", json::object{{"seconds", json::object{{"type", "number"}, {"minimum", 0}, {"maximum", 300}}},
                                                          {"label", json::object{{"type", "string"}}}}}});
    task_fixture("failing_job", "Conformance fixture: fails with a tool error after a second (only as a task)", no_args());
    task_fixture("protocol_error_job", "Conformance fixture: ends in a JSON-RPC error after a second (only as a task)", no_args());
    task_fixture("confirm_delete", "Conformance fixture: asks to confirm deleting {filename} (only as a task)", string_arg("filename"));
    task_fixture("multi_input", "Conformance fixture: asks two questions at once (only as a task)", no_args());
    task_fixture("test_tool_with_task", "Conformance fixture: asks the user's name through an InputRequiredResult, then continues as a task",
                 no_args());
    return list;
  }();
  return list;
}

std::vector<tools::listed_tool> conformance_tools::list_tools() const {
  auto list = fixtures();
  auto rest = inner_.list_tools();
  list.insert(list.end(), std::make_move_iterator(rest.begin()), std::make_move_iterator(rest.end()));
  return list;
}

tools::call_traits conformance_tools::traits_of(std::string_view tool) const {
  tools::call_traits traits;
  if (tool == "slow_compute") return traits;
  if (tool == "failing_job" || tool == "protocol_error_job" || tool == "confirm_delete" || tool == "multi_input" ||
      tool == "test_tool_with_task") {
    traits.tasks = tools::task_support::required;
    return traits;
  }
  const auto& own = fixtures();
  if (std::none_of(own.begin(), own.end(), [tool](const tools::listed_tool& t) { return t.name == tool; })) return inner_.traits_of(tool);
  // The other fixtures answer at once, and their scenarios expect a direct answer.
  traits.tasks = tools::task_support::forbidden;
  if (tool == "test_missing_capability") traits.requires_client_capability = "sampling";
  return traits;
}

asio::awaitable<bool> conformance_tools::pause(const tools::call_options& options) {
  asio::steady_timer t(ex_, kStep);
  co_await t.async_wait(asio::experimental::as_tuple(asio::use_awaitable));
  co_return !(options.cancel && options.cancel->cancelled());
}

asio::awaitable<tools::call_result> conformance_tools::call_tool(std::string name, json::object arguments, tools::call_options options) {
  if (name == "test_simple_text")
    co_return tools::call_result::text("This is a simple text response for testing.");
  if (name == "test_image_content") co_return blocks(json::array{image_block()});
  if (name == "test_audio_content")
    co_return blocks(json::array{json::object{{"type", "audio"}, {"data", json::str(kWav)}, {"mimeType", "audio/wav"}}});
  if (name == "test_embedded_resource")
    co_return blocks(json::array{json::object{
        {"type", "resource"},
        {"resource", json::object{{"uri", "test://embedded-resource"}, {"mimeType", "text/plain"}, {"text", "This is an embedded resource content."}}}}});
  if (name == "test_multiple_content_types")
    co_return blocks(json::array{
        json::object{{"type", "text"}, {"text", "Multiple content types test:"}},
        image_block(),
        json::object{{"type", "resource"},
                     {"resource", json::object{{"uri", "test://mixed-content-resource"}, {"mimeType", "application/json"}, {"text", R"({"test":"data","value":123})"}}}}});
  if (name == "test_error_handling")
    co_return tools::call_result::text("This tool intentionally returns an error for testing", true, errc::tool_failed);
  if (auto answer = name == "test_tool_with_task" ? std::nullopt : input_fixture(name, arguments, options)) co_return std::move(*answer);
  if (name == "test_elicitation" || name == "test_elicitation_sep1034_defaults" || name == "test_elicitation_sep1330_enums") {
    if (!options.elicit)
      co_return tools::call_result::text("Tool " + name + " needs a client that declared the elicitation capability", true, errc::tool_failed);
    auto result = co_await ask_client(options, elicitation_fixture_params(name, arguments));
    if (!result) co_return tools::call_result::text("The client did not answer the elicitation", true, errc::tool_failed);
    const auto* o = result->if_object();
    const auto* action = o ? json::get_string(*o, "action") : nullptr;
    const auto* content = o ? json::find(*o, "content") : nullptr;
    std::string text = name == "test_elicitation" ? "User response: action=" : "Elicitation completed: action=";
    text += action ? std::string(*action) : std::string("(none)");
    text += ", content=" + (content ? json::dump(*content) : std::string("{}"));
    co_return tools::call_result::text(std::move(text));
  }
  if (name == "test_sampling") {
    if (!options.sample)
      co_return tools::call_result::text("Tool test_sampling needs a client that declared the sampling capability", true, errc::tool_failed);
    const auto* prompt = json::get_string(arguments, "prompt");
    auto question = sample(prompt ? std::string_view(*prompt) : std::string_view("Say hello"), 100);
    std::vector<json::object> one;
    one.push_back(std::move(*json::get_object(question, "params")));
    auto answers = co_await ask_clients(options, std::move(one), options.sample);
    const auto* content = answers.front() && answers.front()->is_object() ? json::get_object(answers.front()->get_object(), "content") : nullptr;
    const auto* said = content ? json::get_string(*content, "text") : nullptr;
    if (!said) co_return tools::call_result::text("The client did not answer the sampling request with text", true, errc::tool_failed);
    co_return tools::call_result::text("LLM response: " + std::string(*said));
  }
  if (name == "test_missing_capability") {
    if (!options.input || !options.input->declares("sampling"))
      co_return tools::call_result::text("Tool test_missing_capability needs a client that declared the sampling capability", true, errc::tool_failed);
    co_return tools::call_result::text("The client declared sampling");
  }
  auto task_answer = co_await task_fixture(name, arguments, options);
  if (task_answer) co_return std::move(*task_answer);
  if (name == "test_tool_with_task") {
    auto answer = input_fixture(name, arguments, options);
    // The question is answered: the rest takes long enough to continue as a task.
    if (!answer->input_required && !answer->is_error && !co_await sleep(options, std::chrono::seconds(1)))
      co_return tools::call_result::text("cancelled", true, errc::tool_failed);
    co_return std::move(*answer);
  }
  if (name == "json_schema_2020_12_tool") co_return tools::call_result::text(json::dump(arguments));
  if (name == "test_custom_header") {
    const auto* region = json::get_string(arguments, "region");
    co_return tools::call_result::text("region: " + (region ? std::string(*region) : std::string("(none)")));
  }
  if (name == "test_trigger_tool_change") {
    events_.tools_changed();
    co_return tools::call_result::text("Tool list change announced");
  }
  if (name == "test_tool_with_logging" || name == "test_logging_tool") {
    // No co_return inside the loops (GCC 12: net/asio.hpp).
    const char* steps[] = {"Tool execution started", "Tool processing data", "Tool execution completed"};
    bool cancelled = false;
    for (int i = 0; i < 3 && !cancelled; ++i) {
      if (i > 0) {
        bool go_on = co_await pause(options);
        cancelled = !go_on;
      }
      if (!cancelled) events_.plugin_log(tools::plugin_log_entry{std::string(plugin_name), "info", steps[i], nullptr, now_epoch_ms()});
    }
    co_return cancelled ? tools::call_result::text("cancelled", true, errc::tool_failed) : tools::call_result::text("Logging test completed");
  }
  if (name == "test_tool_with_progress") {
    bool cancelled = false;
    for (double p : {0.0, 50.0, 100.0}) {
      if (options.on_progress) options.on_progress(tools::progress_update{p, 100.0, ""});
      if (p < 100.0) {
        bool go_on = co_await pause(options);
        cancelled = !go_on;
      }
      if (cancelled) break;
    }
    co_return cancelled ? tools::call_result::text("cancelled", true, errc::tool_failed) : tools::call_result::text("Progress test completed");
  }
  co_return co_await inner_.call_tool(std::move(name), std::move(arguments), std::move(options));
}

asio::awaitable<std::optional<json::value>> conformance_tools::ask_client(const tools::call_options& options, json::object params) {
  std::vector<json::object> one;
  one.push_back(std::move(params));
  auto answers = co_await ask_clients(options, std::move(one), options.elicit);
  co_return std::move(answers.front());
}

asio::awaitable<std::vector<std::optional<json::value>>> conformance_tools::ask_clients(const tools::call_options& options,
                                                                                       std::vector<json::object> questions,
                                                                                       const client_channel& channel) {
  struct waiting {
    explicit waiting(asio::any_io_executor ex, std::size_t n) : answered(std::move(ex)), results(n) {}
    net::event answered;
    std::vector<std::optional<json::value>> results;
    std::size_t open = 0;
  };
  auto w = std::make_shared<waiting>(ex_, questions.size());
  std::vector<std::shared_ptr<bool>> answered;
  for (std::size_t i = 0; i < questions.size(); ++i) {
    auto done = std::make_shared<bool>(false);
    answered.push_back(done);
    auto finish = [w, i, done](const json::value* result) {
      if (*done) return std::string();
      *done = true;
      if (result) w->results[i] = json::copy_out(*result);
      if (--w->open == 0) w->answered.notify_all();
      return std::string();
    };
    ++w->open;
    if (!channel(std::move(questions[i]), finish)) finish(nullptr);
  }
  if (options.cancel)
    options.cancel->on_cancel([w, answered] {
      for (const auto& d : answered) *d = true;
      w->open = 0;
      w->answered.notify_all();
    });
  while (w->open > 0) co_await w->answered.wait();
  if (options.cancel) options.cancel->clear_hook();
  co_return std::move(w->results);
}

asio::awaitable<bool> conformance_tools::sleep(const tools::call_options& options, std::chrono::milliseconds d) {
  asio::steady_timer t(ex_, d);
  if (options.cancel) options.cancel->on_cancel([&t] { t.cancel(); });
  co_await t.async_wait(asio::experimental::as_tuple(asio::use_awaitable));
  if (options.cancel) options.cancel->clear_hook();
  co_return !(options.cancel && options.cancel->cancelled());
}

asio::awaitable<std::optional<tools::call_result>> conformance_tools::task_fixture(const std::string& name, const json::object& arguments,
                                                                                  const tools::call_options& options) {
  using std::chrono::milliseconds;
  if (name == "greet") {
    const auto* who = json::get_string(arguments, "name");
    co_return tools::call_result::text("Hello, " + (who ? std::string(*who) : std::string("World")) + "!");
  }
  if (name == "slow_compute") {
    const auto* seconds = json::find(arguments, "seconds");
    double s = seconds && seconds->is_number() ? seconds->to_number<double>() : 0.0;
    if (!(s >= 0 && s <= 300)) co_return bad_input("slow_compute: seconds must be a number from 0 to 300");
    const auto* label = json::get_string(arguments, "label");
    if (s > 0 && !co_await sleep(options, milliseconds(static_cast<long long>(s * 1000))))
      co_return tools::call_result::text("cancelled", true, errc::tool_failed);
    co_return tools::call_result::text("Computed " + (label ? std::string(*label) : std::string("result")) + " after " + std::to_string(static_cast<long long>(s * 1000)) + " ms");
  }
  if (name == "failing_job" || name == "protocol_error_job") {
    if (!co_await sleep(options, milliseconds(1000))) co_return tools::call_result::text("cancelled", true, errc::tool_failed);
    if (name == "failing_job") co_return tools::call_result::text("failing_job failed, as it always does", true, errc::tool_failed);
    // A JSON-RPC error, not a tool result: the task ends failed.
    co_return bad_input("protocol_error_job ended in a protocol error, as it always does");
  }
  if (name == "confirm_delete" || name == "multi_input") {
    if (!options.elicit) co_return tools::call_result::text("Tool " + name + " asks its questions as a task: declare elicitation and the tasks extension", true, errc::tool_failed);
    const auto* file = json::get_string(arguments, "filename");
    std::vector<json::object> questions;
    if (name == "confirm_delete") {
      questions.push_back(form("Delete " + (file ? std::string(*file) : std::string("the file")) + "?",
                               json::object{{"confirm", typed("boolean", "Delete it")}}, json::array{"confirm"}));
    } else {
      questions.push_back(form("What is your name?", json::object{{"name", typed("string", "Your name")}}, json::array{"name"}));
      questions.push_back(form("Proceed?", json::object{{"confirm", typed("boolean", "Go on")}}, json::array{"confirm"}));
    }
    auto answers = co_await ask_clients(options, std::move(questions), options.elicit);
    std::string text = name == "confirm_delete" ? "Answers for deleting " + (file ? std::string(*file) : std::string("the file")) + ":" : "Answers:";
    for (const auto& a : answers) text += " " + (a ? json::dump(*a) : std::string("(none)"));
    co_return tools::call_result::text(std::move(text));
  }
  co_return std::nullopt;
}

std::optional<tools::call_result> conformance_tools::input_fixture(const std::string& name, const json::object& arguments,
                                                                   const tools::call_options& options) {
  struct question {
    std::string key;
    json::object request;
  };
  std::vector<std::vector<question>> rounds;  // what each round asks
  bool sealed = true;                          // whether the fixture uses a requestState
  if (name == "test_input_required_result_elicitation" || name == "test_streaming_elicitation" || name == "test_tool_with_task") {
    rounds = {{{"user_name", elicit("What is your name?", "name", "string")}}};
    sealed = false;
  } else if (name == "test_input_required_result_sampling") {
    rounds = {{{"capital_question", sample("What is the capital of France?", 100)}}};
    sealed = false;
  } else if (name == "test_input_required_result_list_roots") {
    rounds = {{{"client_roots", list_roots()}}};
    sealed = false;
  } else if (name == "test_input_required_result_request_state" || name == "test_input_required_result_tampered_state") {
    rounds = {{{"confirm", elicit("Please confirm", "ok", "boolean")}}};
  } else if (name == "test_input_required_result_multiple_inputs") {
    rounds = {{{"user_name", elicit("What is your name?", "name", "string")},
               {"greeting", sample("Generate a greeting", 50)},
               {"client_roots", list_roots()}}};
  } else if (name == "test_input_required_result_multi_round") {
    rounds = {{{"step1", elicit("Step 1: What is your name?", "name", "string")}},
              {{"step2", elicit("Step 2: What is your favorite color?", "color", "string")}}};
  } else if (name == "test_input_required_result_capabilities") {
    rounds = {{{"user_name", elicit("What is your name?", "name", "string")},
               {"greeting", sample("Generate a greeting", 50)},
               {"client_roots", list_roots()}}};
    sealed = false;
  } else {
    return std::nullopt;
  }
  if (!options.input) return bad_input("Tool " + name + " asks through an InputRequiredResult: call it with protocol revision 2026-07-28");
  const auto& input = *options.input;
  const auto now = now_epoch_ms();
  request_binding binding{name, arguments_digest(arguments), input.client, name, 1};
  std::size_t round = 0;
  if (sealed && input.request_state) {
    auto redeemed = seal_.redeem(*input.request_state, binding, now);
    if (!redeemed) return bad_input(redeemed.err().message);
    round = static_cast<std::size_t>(redeemed->round - 1);
  }
  // Only what the client declared it can answer is asked.
  std::vector<question> asked;
  for (auto& q : rounds[std::min(round, rounds.size() - 1)])
    if (input.declares(capability_of(q.request))) asked.push_back(std::move(q));
  if (asked.empty()) return tools::call_result::text("The client declared none of the capabilities this tool asks through", true, errc::tool_failed);
  const json::object* responses = input.responses ? input.responses->if_object() : nullptr;
  bool answered = responses != nullptr && (!sealed || input.request_state);
  for (const auto& q : asked) {
    const json::value* r = responses ? responses->if_contains(q.key) : nullptr;
    if (!r) answered = false;
    else if (!r->is_object()) return bad_input("params.inputResponses." + q.key + " must be a result object, got " + std::string(json::type_name(*r)));
  }
  if (!answered) {
    json::object requests;
    for (auto& q : asked) requests[q.key] = std::move(q.request);
    binding.round = static_cast<std::int64_t>(round + 1);
    return input_required(std::move(requests), sealed ? std::optional<std::string>(seal_.seal(binding, now)) : std::nullopt);
  }
  if (round + 1 < rounds.size()) {
    json::object requests;
    for (auto& q : rounds[round + 1]) requests[q.key] = std::move(q.request);
    binding.round = static_cast<std::int64_t>(round + 2);
    return input_required(std::move(requests), seal_.seal(binding, now));
  }
  if (const auto* user = responses->if_contains("user_name"); user && name != "test_input_required_result_multiple_inputs") {
    const auto* content = json::get_object(user->as_object(), "content");
    const auto* person = content ? json::get_string(*content, "name") : nullptr;
    return tools::call_result::text("Hello, " + (person ? std::string(*person) : std::string("stranger")) + "!");
  }
  return tools::call_result::text(sealed ? "All input received; state-ok" : "All input received");
}

}  // namespace opentabs::mcp
