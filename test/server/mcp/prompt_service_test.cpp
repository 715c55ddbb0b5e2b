// The rules every prompt shares: prompts/get's params, the arguments against the prompt's
// declaration, and the wire shapes of the listing and of a built prompt per revision.
#include <doctest/doctest.h>

#include "mcp/prompt_service.hpp"

using namespace opentabs;
using namespace opentabs::mcp;

namespace {

json::object o(std::string_view text) { return *json::parse_object(text); }

prompt_def tab_prompt() {
  return {"work_on_tab", "Work on a browser tab", "Attach a tab", {{"tabId", "The tab's id", true}, {"task", "What to do", false}}};
}

json::object response(const std::string& text) { return *json::parse_object(text); }

}  // namespace

TEST_CASE("prompts/get params: name required, arguments an object of strings, retry fields typed") {
  auto ok = parse_prompts_get(o(R"({"name":"work_on_tab","arguments":{"tabId":"12"},"inputResponses":{"k":{}},"requestState":"s"})"));
  REQUIRE(ok);
  CHECK(ok.value->name == "work_on_tab");
  CHECK(ok.value->arguments.at("tabId").as_string() == "12");
  CHECK(ok.value->input_responses.has_value());
  CHECK(*ok.value->request_state == "s");
  auto missing = parse_prompts_get(o(R"({})"));
  CHECK(missing.error.code == jsonrpc::rpc_code::invalid_params);
  CHECK(missing.error.message.find("params.name") != std::string::npos);
  auto number = parse_prompts_get(o(R"({"name":"work_on_tab","arguments":{"tabId":12}})"));
  CHECK(number.error.message.find("params.arguments.tabId") != std::string::npos);
  CHECK(number.error.message.find("must be a string") != std::string::npos);
  CHECK_FALSE(parse_prompts_get(o(R"({"name":"x","arguments":[1]})")));
  CHECK_FALSE(parse_prompts_get(o(R"({"name":"x","requestState":1})")));
  CHECK_FALSE(parse_prompts_get(o(R"({"name":""})")));
}

TEST_CASE("arguments are checked against the declaration: required present and not blank, nothing undeclared") {
  const auto p = tab_prompt();
  CHECK_FALSE(check_prompt_arguments(p, o(R"({"tabId":"12"})")));
  CHECK_FALSE(check_prompt_arguments(p, o(R"({"tabId":"12","task":"read it"})")));
  auto missing = check_prompt_arguments(p, o(R"({"task":"read it"})"));
  REQUIRE(missing);
  CHECK(missing->code == jsonrpc::rpc_code::invalid_params);
  CHECK(missing->message.find("needs argument tabId") != std::string::npos);
  CHECK(missing->message.find("tabId (required), task (optional)") != std::string::npos);
  auto blank = check_prompt_arguments(p, o(R"({"tabId":"  "})"));
  REQUIRE(blank);
  CHECK(blank->message.find("needs argument tabId") != std::string::npos);
  auto extra = check_prompt_arguments(p, o(R"({"tabId":"12","tab":"12"})"));
  REQUIRE(extra);
  CHECK(extra->message.find("has no argument \"tab\"") != std::string::npos);
}

TEST_CASE("an unknown prompt names the ones that exist") {
  auto e = unknown_prompt("work_on_tabs", {tab_prompt()});
  CHECK(e.code == jsonrpc::rpc_code::invalid_params);
  CHECK(e.message.find("\"work_on_tabs\"") != std::string::npos);
  CHECK(e.message.find("the prompts are: work_on_tab") != std::string::npos);
  CHECK(find_prompt({tab_prompt()}, "work_on_tab") != nullptr);
  CHECK(find_prompt({tab_prompt()}, "other") == nullptr);
}

TEST_CASE("the listing: name, title, description and every argument with required") {
  auto list = prompts_list_result({tab_prompt()});
  const auto& p = list.at("prompts").as_array().at(0).as_object();
  CHECK(p.at("name").as_string() == "work_on_tab");
  CHECK(p.at("title").as_string() == "Work on a browser tab");
  CHECK(p.at("description").as_string() == "Attach a tab");
  CHECK(p.at("arguments").as_array().size() == 2);
  CHECK(p.at("arguments").as_array()[0].at("required").as_bool() == true);
  CHECK(p.at("arguments").as_array()[1].at("required").as_bool() == false);
  prompt_def untitled{"x", "", "d", {}};
  CHECK_FALSE(untitled.to_json().contains("title"));
}

TEST_CASE("prompts/get responses per revision: complete, input_required, or the error's code") {
  auto built = prompt_result::text("Work on tab 12", "hello");
  auto legacy = response(prompts_get_response(json::value(1), result<prompt_result>(built), false));
  CHECK_FALSE(legacy.at("result").as_object().contains("resultType"));
  CHECK(legacy.at("result").at("messages").as_array()[0].at("content").at("text").as_string() == "hello");
  CHECK(legacy.at("result").at("description").as_string() == "Work on tab 12");
  auto modern = response(prompts_get_response(json::value(2), result<prompt_result>(built), true));
  CHECK(modern.at("result").at("resultType").as_string() == "complete");
  prompt_result asking;
  asking.input_required = o(R"({"inputRequests":{"k":{"method":"elicitation/create","params":{}}},"requestState":"s"})");
  auto asked = response(prompts_get_response(json::value(3), result<prompt_result>(asking), true));
  CHECK(asked.at("result").at("resultType").as_string() == "input_required");
  CHECK(asked.at("result").at("requestState").as_string() == "s");
  CHECK_FALSE(asked.at("result").as_object().contains("messages"));
  auto failed = response(prompts_get_response(json::value(4), result<prompt_result>(make_error(errc::invalid_params, "tabId 9 is not open")), true));
  CHECK(failed.at("error").at("code").as_int64() == jsonrpc::rpc_code::invalid_params);
  CHECK(failed.at("error").at("message").as_string() == "tabId 9 is not open");
  auto declined = response(prompts_get_response(json::value(5), result<prompt_result>(make_error(errc::cancelled, "declined")), false));
  CHECK(declined.at("error").at("code").as_int64() != jsonrpc::rpc_code::invalid_params);
}
