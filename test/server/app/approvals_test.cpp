// The approvals seam on its own: ask() with the side panel (over the fake extension) and the
// agent's dialog as askers — a 2025-11-25 elicitation and a 2026-07-28 InputRequiredResult
// retry — returns the one decision's effect, says who decided, and tells an answer that came
// second that it lost; open questions are counted per caller identity.
#include <doctest/doctest.h>

#include "app/approvals.hpp"
#include "drive_io.hpp"
#include "fake_extension.hpp"
#include "permission_question.hpp"

using namespace opentabs;
using namespace opentabs::app;
using namespace opentabs::app::testing;

namespace {

struct fixture {
  fixture() { hub.set_reconnect_wait(std::chrono::milliseconds(0)); }
  asio::io_context io;
  audit::audit_log log{audit::audit_log_options{}};
  opentabs::app::testing::connection_log connections;
  extension_hub hub{io.get_executor(), dispatch_timing{}, connections};
  confirmations confirm{io.get_executor(), log};
  recording_grants grants;
  approvals seam{confirm, hub, grants};
  tools::tool_def tool = demo_echo_tool();
  json::object args = json::parse_object(R"({"text":"hi"})").value();
};

}  // namespace

TEST_CASE("2025-11-25: the side panel decides first; the dialog is withdrawn, and its late answer is told it lost") {
  fixture f;
  fake_extension ext(f.hub, "profile-1");
  const tools::permission_question q{f.tool, f.args, "tab 3", ""};
  tools::call_options options;
  options.caller = "session s1";
  agent_dialog dialog;
  dialog.open_on(options);
  std::optional<approvals::outcome> out;
  opentabs::testing::spawn_into(f.io, f.seam.ask(q, options), out);
  opentabs::testing::run_until(f.io, [&] { return f.confirm.waiting() == 1; });
  auto asked = ext.calls("confirmation.request");
  REQUIRE(asked.size() == 1);
  const std::string id(*json::get_string(asked[0].at("params").as_object(), "id"));
  CHECK(f.confirm.answer(id, decision::allow, audit::decided_by::side_panel).decided());
  opentabs::testing::run_until(f.io, [&] { return out.has_value(); });
  CHECK_FALSE(out->stop);  // allowed: the call runs
  CHECK(out->decided_by == audit::decided_by::side_panel);
  CHECK(dialog.withdrawn == std::vector<std::string>{"Already decided in the OpenTabs side panel: allowed once"});
  CHECK(dialog.answer("deny") ==
        "Your answer in the agent's dialog (deny) was not used: the OpenTabs side panel had already decided (allowed once), and that "
        "decision took effect.");
  auto entries = f.log.query(audit::audit_query{});
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].lost->decision == "deny");
}

TEST_CASE("2026-07-28: an input request first; the retry after the side panel's deny is refused, naming it, and its allow lost") {
  fixture f;
  fake_extension ext(f.hub, "profile-1");
  const tools::permission_question q{f.tool, f.args, "", "digest-1"};
  agent_round_trip agent;
  tools::call_options options;
  options.caller = "mcp proof A\nclaude-code";
  agent.open_on(options);
  std::optional<approvals::outcome> first;
  opentabs::testing::spawn_into(f.io, f.seam.ask(q, options), first);
  opentabs::testing::run_until(f.io, [&] { return first.has_value(); });
  REQUIRE(first->stop);
  REQUIRE(first->stop->input_required);
  CHECK_FALSE(first->decided_by);
  const std::string id(*json::get_string(ext.calls("confirmation.request").at(0).at("params").as_object(), "id"));
  CHECK(f.confirm.answer(id, decision::deny, audit::decided_by::side_panel).decided());

  agent.retry_answering(*first->stop->input_required, "allow_once");
  std::optional<approvals::outcome> second;
  opentabs::testing::spawn_into(f.io, f.seam.ask(q, options), second);
  opentabs::testing::run_until(f.io, [&] { return second.has_value(); });
  REQUIRE(second->stop);
  CHECK(second->decided_by == audit::decided_by::side_panel);
  CHECK(std::string(*json::get_string(second->stop->content.at(0).as_object(), "text")) ==
        "Tool demo_echo was denied by the user in the OpenTabs side panel.");
  CHECK(second->notice ==
        "Your answer in the agent's dialog (allow_once) was not used: the OpenTabs side panel had already decided (denied), and that "
        "decision took effect.");
  // The side panel was told the question is settled, by itself.
  auto settled = ext.calls("confirmation.settled");
  REQUIRE_FALSE(settled.empty());
  CHECK(*json::get_string(settled.back().at("params").as_object(), "decidedBy") == "side_panel");
}

TEST_CASE("open questions are counted per caller identity: a second claude-code cannot spend the first one's") {
  fixture f;
  fake_extension ext(f.hub, "profile-1");
  const tools::permission_question q{f.tool, f.args, "", "digest-1"};
  agent_round_trip agent;
  auto ask_as = [&](std::string caller) {
    tools::call_options options;
    options.caller = std::move(caller);
    agent.open_on(options);
    std::optional<approvals::outcome> out;
    opentabs::testing::spawn_into(f.io, f.seam.ask(q, options), out);
    opentabs::testing::run_until(f.io, [&] { return out.has_value(); });
    return std::move(*out);
  };
  for (std::size_t i = 0; i < confirmations::max_open_per_caller; ++i) REQUIRE(ask_as("mcp proof B\nclaude-code").stop->input_required);
  auto refused = ask_as("mcp proof B\nclaude-code");
  CHECK_FALSE(refused.stop->input_required);
  CHECK(refused.stop->is_error);
  CHECK(ask_as("mcp proof A\nclaude-code").stop->input_required);
}
