// The pieces of a permission question as the unit tests of approvals, the side panel asker
// and the tool pipeline put it: the tool asked about, the agent's dialog (2025-11-25
// elicitation) that keeps the answer callback it was handed, the ElicitResult a click makes,
// a 2026-07-28 input round from a client that can show a form and its retry carrying an
// answer, and grants that record what "always allow" granted.
#pragma once

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "app/permission_grants.hpp"
#include "json/json.hpp"
#include "mcp/permission_prompt.hpp"
#include "tools/tool.hpp"
#include "tools/tool_service.hpp"

namespace opentabs::app::testing {

// demo_echo, a plugin tool with no schema: what the question is about when only its name matters.
inline tools::tool_def demo_echo_tool() {
  tools::tool_def t;
  t.plugin = "demo";
  t.base_name = "echo";
  t.name = "demo_echo";
  return t;
}

// The ElicitResult of a person choosing `decision` in the agent's dialog.
inline json::value elicit_answer(std::string_view decision) {
  return json::value(json::object{{"action", "accept"}, {"content", json::object{{"decision", json::str(decision)}}}});
}

// The agent's dialog over a 2025-11-25 session: opened on a call's options, it keeps the
// callback that answers the question (so the test clicks when it chooses) and the reasons it
// was withdrawn with.
struct agent_dialog {
  void open_on(tools::call_options& options) {
    options.elicit = [this](json::object, tools::call_options::answer_fn a) {
      answer = std::move(a);
      return true;
    };
    options.withdraw_elicitations = [this](std::string_view reason) { withdrawn.emplace_back(reason); };
  }
  tools::call_options::answer_fn answer;
  std::vector<std::string> withdrawn;
};

// A 2026-07-28 call's input round from `client`, which declared it can show a form.
inline std::shared_ptr<tools::input_round> form_input_round(std::string client) {
  auto input = std::make_shared<tools::input_round>();
  input->client_capabilities = json::parse_object(R"({"elicitation":{"form":{}}})").value();
  input->client = std::move(client);
  return input;
}

// The retry of a call asked with `asked`, answering the InputRequiredResult `input_required`
// with `decision` under the sealed requestState it carried.
inline std::shared_ptr<tools::input_round> answering_round(const tools::input_round& asked, const json::object& input_required,
                                                           std::string_view decision) {
  const auto* state = json::get_string(input_required, "requestState");
  REQUIRE(state != nullptr);
  auto retry = std::make_shared<tools::input_round>(asked);
  retry->request_state = std::string(*state);
  retry->responses = json::value(json::object{{mcp::permission_input_key, elicit_answer(decision)}});
  return retry;
}

// Grants that record the tools "always allow" was granted for, and review nothing.
struct recording_grants final : permission_grants {
  void always_allow(const tools::tool_def& tool) override { always.push_back(tool.name); }
  std::string grant_reviewed(const std::string&, tools::permission, const std::string&) override { return {}; }
  std::vector<std::string> always;
};

}  // namespace opentabs::app::testing
