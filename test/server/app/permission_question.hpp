// The pieces of a permission question as the unit tests of approvals, the side panel asker
// and the tool pipeline put it: the tool asked about, the agent's dialog as either asker of
// the approvals seam (tools/permission_askers.hpp) — one that keeps the answer callback it
// was handed (so the test clicks when it chooses), one whose requests bring what the test
// says the client retried with — and grants that record what "always allow" granted.
#pragma once

#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "app/permission_grants.hpp"
#include "json/json.hpp"
#include "tools/permission_askers.hpp"
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

// A person's choice in the agent's dialog by the name its form gives it.
inline tools::permission_answer choice(std::string_view name) {
  if (name == "allow_once") return tools::permission_answer::allow_once;
  if (name == "always_allow") return tools::permission_answer::always_allow;
  REQUIRE(name == "deny");
  return tools::permission_answer::deny;
}

// The agent's dialog while the call waits: opened on a call's options, it keeps the callback
// that answers the question and the reasons it was withdrawn with.
struct agent_dialog final : tools::dialog_asker {
  void open_on(tools::call_options& options) { options.dialog = std::shared_ptr<tools::dialog_asker>(std::shared_ptr<void>(), this); }
  bool ask(const tools::permission_question&, on_answer a) override {
    answered = std::move(a);
    return true;
  }
  void withdraw(std::string_view reason) override { withdrawn.emplace_back(reason); }
  // The person chooses `name`; what the client is told ("" when the answer decided).
  std::string answer(std::string_view name) { return answered(choice(name)); }

  on_answer answered;
  std::vector<std::string> withdrawn;
};

// The agent's dialog across a round trip: every request of the call brings `next` (a first
// request until the test retries), and the input request names the question and its round.
struct agent_round_trip final : tools::round_trip_asker {
  void open_on(tools::call_options& options) {
    options.round_trip = std::shared_ptr<tools::round_trip_asker>(std::shared_ptr<void>(), this);
  }
  result<brought> bring(const tools::permission_question&) override { return next; }
  json::object input_request(const tools::permission_question&, const std::string& prompt, std::int64_t round) override {
    return json::object{{"prompt", json::str(prompt)}, {"round", round}};
  }
  std::chrono::milliseconds patience() const override { return std::chrono::minutes(10); }
  // The client retries the call that ended with `input_required`, answering `name`.
  void retry_answering(const json::object& input_required, std::string_view name) {
    const auto* prompt = json::get_string(input_required, "prompt");
    REQUIRE(prompt != nullptr);
    next = brought{std::string(*prompt), *json::get_int(input_required, "round"), choice(name)};
  }

  result<brought> next = brought{};
};

// Grants that record the tools "always allow" was granted for, and review nothing.
struct recording_grants final : permission_grants {
  void always_allow(const tools::tool_def& tool) override { always.push_back(tool.name); }
  std::string grant_reviewed(const std::string&, tools::permission, const std::string&) override { return {}; }
  std::vector<std::string> always;
};

}  // namespace opentabs::app::testing
