// completion/complete: its params, the ranking of what a source offers against what is
// typed, and the registry picking the source by ref and argument.
#include <doctest/doctest.h>

#include <optional>

#include "mcp/completion.hpp"

using namespace opentabs;
using namespace opentabs::mcp;

namespace {

json::object o(std::string_view text) { return *json::parse_object(text); }

std::vector<std::string> values(const json::object& result) {
  std::vector<std::string> out;
  for (const auto& v : result.at("completion").at("values").as_array()) out.emplace_back(v.as_string());
  return out;
}

json::object run(const completion_registry& registry, const completion_request& request) {
  asio::io_context io;
  std::optional<json::object> out;
  asio::co_spawn(io, [&]() -> net::awaitable<void> { out = co_await registry.complete(request); }, asio::detached);
  io.run();
  return *out;
}

}  // namespace

TEST_CASE("completion/complete params: a prompt or resource-template ref, the argument and what is typed") {
  auto prompt = parse_complete(o(R"({"ref":{"type":"ref/prompt","name":"work_on_tab"},"argument":{"name":"tabId","value":"gi"},"context":{"arguments":{"task":"x"}}})"));
  REQUIRE(prompt);
  CHECK(prompt.value->kind == completion_ref_kind::prompt);
  CHECK(prompt.value->ref == "work_on_tab");
  CHECK(prompt.value->argument == "tabId");
  CHECK(prompt.value->value == "gi");
  CHECK(prompt.value->context.at("task").as_string() == "x");
  auto templ = parse_complete(o(R"({"ref":{"type":"ref/resource","uri":"opentabs://tab/{tabId}"},"argument":{"name":"tabId","value":""}})"));
  REQUIRE(templ);
  CHECK(templ.value->kind == completion_ref_kind::resource_template);
  CHECK(templ.value->ref == "opentabs://tab/{tabId}");
  auto bad_type = parse_complete(o(R"({"ref":{"type":"ref/tool","name":"x"},"argument":{"name":"a","value":""}})"));
  CHECK(bad_type.error.message.find("params.ref.type") != std::string::npos);
  auto no_value = parse_complete(o(R"({"ref":{"type":"ref/prompt","name":"x"},"argument":{"name":"a"}})"));
  CHECK(no_value.error.message.find("params.argument.value") != std::string::npos);
  CHECK_FALSE(parse_complete(o(R"({"argument":{"name":"a","value":""}})")));
}

TEST_CASE("ranking: values starting with the typed text first, then values or labels containing it, case-insensitively") {
  std::vector<completion_candidate> tabs{{"101", "GitHub - opentabs"}, {"202", "Inbox (3) - Gmail"}, {"1203", "Docs"}, {"330", "Issues · GitHub"}};
  CHECK(values(completion_registry::rank(tabs, "")) == std::vector<std::string>{"101", "202", "1203", "330"});
  CHECK(values(completion_registry::rank(tabs, "github")) == std::vector<std::string>{"101", "330"});
  CHECK(values(completion_registry::rank(tabs, "20")) == std::vector<std::string>{"202", "1203"});
  auto none = completion_registry::rank(tabs, "nothing like it");
  CHECK(values(none).empty());
  CHECK(none.at("completion").at("total").as_int64() == 0);
  CHECK(none.at("completion").at("hasMore").as_bool() == false);
}

TEST_CASE("at most 100 values, with the total and hasMore") {
  std::vector<completion_candidate> many;
  for (int i = 0; i < 250; ++i) many.push_back({"tool_" + std::to_string(i), ""});
  auto r = completion_registry::rank(many, "tool");
  CHECK(values(r).size() == completion_registry::max_values);
  CHECK(r.at("completion").at("total").as_int64() == 250);
  CHECK(r.at("completion").at("hasMore").as_bool() == true);
}

TEST_CASE("the registry asks the source registered for the ref and argument; others complete to nothing") {
  completion_registry registry;
  int asked = 0;
  registry.add(completion_ref_kind::prompt, "review_plugin", "plugin", [&asked](const json::object&) -> net::awaitable<std::vector<completion_candidate>> {
    ++asked;
    co_return std::vector<completion_candidate>{{"slack", "Slack"}, {"github", "GitHub"}};
  });
  // A resource template registers its variable the same way.
  registry.add(completion_ref_kind::resource_template, "opentabs://tab/{tabId}", "tabId", [](const json::object& context) -> net::awaitable<std::vector<completion_candidate>> {
    co_return std::vector<completion_candidate>{{"7", context.contains("window") ? "chosen window" : "any"}};
  });
  CHECK(registry.knows(completion_ref_kind::prompt, "review_plugin", "plugin"));
  CHECK_FALSE(registry.knows(completion_ref_kind::resource_template, "review_plugin", "plugin"));
  CHECK(values(run(registry, {completion_ref_kind::prompt, "review_plugin", "plugin", "sl", {}})) == std::vector<std::string>{"slack"});
  CHECK(asked == 1);
  CHECK(values(run(registry, {completion_ref_kind::prompt, "review_plugin", "other", "", {}})).empty());
  CHECK(asked == 1);
  CHECK(values(run(registry, {completion_ref_kind::resource_template, "opentabs://tab/{tabId}", "tabId", "chosen", o(R"({"window":"1"})")})) ==
        std::vector<std::string>{"7"});
}
