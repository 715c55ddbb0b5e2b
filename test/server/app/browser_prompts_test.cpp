// The slash-command prompts on their own: the tool calls they make go to the tool service
// they were given (a scripted one here), with the caller's options; what they say about a
// plugin comes from the catalog and the audit log; build_plugin's question round trip with
// a sealed requestState.
#include "app/browser_prompts.hpp"

#include "fake_extension.hpp"

#include <doctest/doctest.h>

#include <optional>

using namespace opentabs;
using namespace opentabs::app;

namespace {

json::object o(std::string_view text) { return *json::parse_object(text); }

// A tool service that lists what it is told and answers calls from a script, recording them.
struct scripted_service final : tools::tool_service {
  std::vector<tools::listed_tool> listed;
  std::map<std::string, tools::call_result> answers;
  std::vector<std::pair<std::string, json::object>> calls;
  std::vector<std::shared_ptr<const tools::input_round>> inputs;

  std::vector<tools::listed_tool> list_tools() const override { return listed; }
  asio::awaitable<tools::call_result> call_tool(std::string name, json::object arguments, tools::call_options options) override {
    calls.emplace_back(name, arguments);
    inputs.push_back(options.input);
    auto it = answers.find(name);
    co_return it != answers.end() ? it->second : tools::call_result::text("no script for " + name, true, errc::tool_failed);
  }
};

struct fixture {
  asio::io_context io;
  scripted_service service;
  plugin_catalog catalog;
  webmcp_directory webmcp;
  audit::audit_log audit{audit::audit_log_options{}};
  testing::connection_log connections;
  extension_hub hub{io.get_executor(), dispatch_timing{}, connections};
  completion_sources sources{hub, catalog, webmcp, service};
  browser_prompts prompts{service, catalog, webmcp, audit, sources};

  fixture() {
    plugins::plugin notes;
    notes.loaded.name = "notes";
    notes.loaded.display_name = "Notes";
    notes.loaded.version = "1.2.3";
    notes.loaded.source = "npm";
    notes.loaded.package_name = "opentabs-plugin-notes";
    notes.loaded.adapter_source = "console.log(1)";
    notes.settings.url_patterns = {"*://notes.example.com/*"};
    tools::tool_def echo;
    echo.name = "notes_echo";
    echo.plugin = "notes";
    echo.description = "Echo a message";
    notes.tools.push_back(echo);
    catalog.plugins.push_back(std::move(notes));
    service.listed = {{"notes_echo", "[Requires approval] Echo a message", {}, "notes"},
                      {"browser_snapshot", "Accessibility snapshot", {}, "browser"},
                      {"browser_click_element", "[Disabled] Click", {}, "browser"}};
  }

  result<mcp::prompt_result> get(std::string name, json::object arguments, tools::call_options options = {}, json::object answers = {}) {
    std::optional<result<mcp::prompt_result>> out;
    asio::co_spawn(io, [&]() -> net::awaitable<void> { out = co_await prompts.get_prompt(name, arguments, answers, options); }, asio::detached);
    io.run();
    io.restart();
    return std::move(*out);
  }
};

std::string all_text(const mcp::prompt_result& r) {
  std::string out;
  for (const auto& m : r.messages) out += std::string(m.at("content").at("text").as_string()) + "\n";
  return out;
}

tools::call_options modern_options(std::optional<json::value> responses = std::nullopt, std::optional<std::string> state = std::nullopt) {
  auto round = std::make_shared<tools::input_round>();
  round->client_capabilities = o(R"({"elicitation":{"form":{}}})");
  round->client = "test-client";
  round->responses = std::move(responses);
  round->request_state = std::move(state);
  tools::call_options options;
  options.input = round;
  return options;
}

}  // namespace

TEST_CASE("three prompts, each argument declared; completions registered for tab ids and plugin names") {
  fixture f;
  auto list = f.prompts.list_prompts();
  REQUIRE(list.size() == 3);
  CHECK(list[0].name == "work_on_tab");
  CHECK(list[0].arguments[0].name == "tabId");
  CHECK(list[0].arguments[0].required);
  CHECK(list[2].name == "review_plugin");
  mcp::completion_registry registry;
  f.prompts.register_completions(registry);
  CHECK(registry.knows(mcp::completion_ref_kind::prompt, "work_on_tab", "tabId"));
  CHECK(registry.knows(mcp::completion_ref_kind::prompt, "review_plugin", "plugin"));
  CHECK(f.prompts.asks_client("build_plugin"));
  CHECK_FALSE(f.prompts.asks_client("review_plugin"));
}

TEST_CASE("work_on_tab: the snapshot is a browser_snapshot call through the service, with the caller's options") {
  fixture f;
  f.service.answers["browser_snapshot"] = tools::call_result::text("- button \"Save\" [ref=e3@k3f9]");
  auto options = modern_options();
  auto r = f.get("work_on_tab", o(R"({"tabId":"12","task":"save it"})"), options);
  REQUIRE(r);
  REQUIRE(f.service.calls.size() == 1);
  CHECK(f.service.calls[0].first == "browser_snapshot");
  CHECK(json::dump(f.service.calls[0].second) == R"({"tabId":12})");
  CHECK(f.service.inputs[0] == options.input);
  const auto text = all_text(*r);
  CHECK(text.find("tab 12") != std::string::npos);
  CHECK(text.find("The task: save it") != std::string::npos);
  CHECK(text.find("button \"Save\" [ref=e3@k3f9]") != std::string::npos);
  CHECK(text.find("browser_click_element [Disabled]") != std::string::npos);
  CHECK(text.find("browser_find [not offered]") != std::string::npos);
  CHECK(text.find("untrusted") != std::string::npos);
}

TEST_CASE("work_on_tab: a refused snapshot is said, a permission question becomes the prompt's, a bad tab id is invalid_params") {
  fixture f;
  f.service.answers["browser_snapshot"] = tools::call_result::text("Tool browser_snapshot is currently disabled", true, errc::tool_failed);
  auto refused = f.get("work_on_tab", o(R"({"tabId":"12"})"));
  REQUIRE(refused);
  CHECK(all_text(*refused).find("could not be attached: Tool browser_snapshot is currently disabled") != std::string::npos);

  tools::call_result question;
  question.input_required = o(R"({"inputRequests":{"opentabs_permission":{"method":"elicitation/create","params":{}}},"requestState":"sealed"})");
  f.service.answers["browser_snapshot"] = question;
  auto asked = f.get("work_on_tab", o(R"({"tabId":"12"})"), modern_options());
  REQUIRE(asked);
  REQUIRE(asked->input_required);
  CHECK(asked->input_required->at("requestState").as_string() == "sealed");

  for (auto bad : {R"({"tabId":"twelve"})", R"({"tabId":"0"})", R"({"tabId":"12x"})", R"({"tabId":"99999999999"})"}) {
    auto r = f.get("work_on_tab", o(bad));
    REQUIRE_FALSE(r);
    CHECK(r.err().kind == errc::invalid_params);
  }
}

TEST_CASE("review_plugin: sites, tools with their permission, source and the last audit entries") {
  fixture f;
  audit::audit_entry e;
  e.timestamp = "2026-12-06T10:00:00.000Z";
  e.tool = "notes_echo";
  e.plugin = "notes";
  e.success = true;
  e.duration_ms = 42;
  REQUIRE(f.audit.append(e));
  auto r = f.get("review_plugin", o(R"({"plugin":"notes"})"));
  REQUIRE(r);
  const auto text = all_text(*r);
  CHECK(text.find("notes (Notes) v1.2.3") != std::string::npos);
  CHECK(text.find("npm package opentabs-plugin-notes") != std::string::npos);
  CHECK(text.find("*://notes.example.com/*") != std::string::npos);
  CHECK(text.find("notes_echo [Requires approval]: Echo a message") != std::string::npos);
  CHECK(text.find("2026-12-06T10:00:00.000Z notes_echo ok in 42 ms") != std::string::npos);
  CHECK(f.service.calls.empty());
  auto unknown = f.get("review_plugin", o(R"({"plugin":"mail"})"));
  REQUIRE_FALSE(unknown);
  CHECK(unknown.err().message.find("the plugins are: notes") != std::string::npos);
}

TEST_CASE("build_plugin: with a site, the steps; without one, the site question, then the steps for the answered site") {
  fixture f;
  auto direct = f.get("build_plugin", o(R"({"site":"app.example.com","goal":"list invoices"})"));
  REQUIRE(direct);
  CHECK(all_text(*direct).find("opentabs plugin create example --domain app.example.com") != std::string::npos);
  CHECK(f.service.calls.empty());

  auto first = f.get("build_plugin", json::object{});
  REQUIRE(first);
  REQUIRE(first->question);
  CHECK(first->question->key == "opentabs_plugin_site");
  CHECK(first->question->form.at("mode") == "form");
  CHECK(first->question->unanswered.find("needs the site argument") != std::string::npos);
  CHECK(first->messages.empty());

  auto built = f.get("build_plugin", json::object{}, {}, o(R"({"opentabs_plugin_site":{"site":"shop.example.net","goal":"track orders"}})"));
  REQUIRE(built);
  CHECK_FALSE(built->question);
  CHECK(all_text(*built).find("for shop.example.net, whose tools track orders.") != std::string::npos);

  auto no_site = f.get("build_plugin", json::object{}, {}, o(R"({"opentabs_plugin_site":{"goal":"track orders"}})"));
  REQUIRE_FALSE(no_site);
  CHECK(no_site.err().kind == errc::invalid_params);
}
