// The side panel as an asker: the confirmation.* frames it sends over the fake extension —
// the question with its arguments redacted as in the agent's dialog, the withdrawal naming
// who decided, the "not used" answer to a click that came too late, and the notice that
// "always allow" in the agent's dialog set a tool to auto.  Nothing is sent with no extension.
#include <doctest/doctest.h>

#include "app/side_panel_asker.hpp"
#include "fake_extension.hpp"
#include "permission_question.hpp"

using namespace opentabs;
using namespace opentabs::app;
using opentabs::app::testing::demo_echo_tool;
using opentabs::app::testing::fake_extension;

namespace {

struct fixture {
  fixture() { hub.set_reconnect_wait(std::chrono::milliseconds(0)); }
  asio::io_context io;
  opentabs::app::testing::connection_log connections;
  extension_hub hub{io.get_executor(), dispatch_timing{}, connections};
  side_panel_asker panel{hub};
  tools::tool_def tool = demo_echo_tool();
};

json::object params_of(const json::object& frame) { return frame.at("params").as_object(); }

}  // namespace

TEST_CASE("with no extension connected the side panel cannot be asked and nothing is sent") {
  fixture f;
  CHECK_FALSE(f.panel.available());
  f.panel.ask("q1", f.tool, json::object{}, "");  // must not throw or queue anything
  f.panel.settled("q1", audit::decided_by::elicitation);
}

TEST_CASE("the question, its withdrawal, a click that came too late and the always-allow notice, as frames") {
  fixture f;
  fake_extension ext(f.hub, "profile-1");
  REQUIRE(f.panel.available());

  f.panel.ask("q1", f.tool, json::parse_object(R"({"text":"hi","token":"s3cret"})").value(), "tab 3 (example.com)");
  auto asked = ext.calls("confirmation.request");
  REQUIRE(asked.size() == 1);
  auto q = params_of(asked[0]);
  CHECK(json::dump(q) ==
        R"j({"id":"q1","tool":"echo","plugin":"demo","where":"tab 3 (example.com)","params":{"text":"hi","token":"[redacted]"}})j");

  f.panel.settled("q1", audit::decided_by::elicitation);
  auto settled = ext.calls("confirmation.settled");
  REQUIRE(settled.size() == 1);
  CHECK(json::dump(params_of(settled[0])) == R"({"id":"q1","decidedBy":"elicitation"})");

  answer_outcome lost{answer_outcome::kind::lost, verdict{decision::deny, audit::decided_by::elicitation}, "not used: denied there"};
  f.panel.not_used("q1", lost);
  settled = ext.calls("confirmation.settled");
  REQUIRE(settled.size() == 2);
  CHECK(json::dump(params_of(settled[1])) == R"({"id":"q1","decidedBy":"elicitation","notUsed":"not used: denied there"})");
  // An answer that decided is no news.
  f.panel.not_used("q1", answer_outcome{answer_outcome::kind::decided, std::nullopt, {}});
  CHECK(ext.calls("confirmation.settled").size() == 2);

  f.panel.always_allowed(f.tool);
  auto notices = ext.calls("confirmation.alwaysAllowed");
  REQUIRE(notices.size() == 1);
  auto n = params_of(notices[0]);
  CHECK(*json::get_string(n, "tool") == "echo");
  CHECK(*json::get_string(n, "plugin") == "demo");
  CHECK(*json::get_string(n, "permission") == "auto");
  CHECK(std::string(*json::get_string(n, "message")) ==
        "\"Always allow\" in the agent's dialog set demo_echo to auto: it now runs without asking. Set it back to Ask in its card in "
        "the OpenTabs side panel, or run `opentabs config set tool-permission.demo.echo ask`.");
}
