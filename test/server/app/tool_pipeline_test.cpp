// The tool pipeline's stages over a scripted backend table: lookup, the permission gate
// (off / ask / auto), argument validation, dispatch by tool kind, backend failures,
// cancellation, and the audit entry — written exactly once for every call, never for a
// question put to the user.
#include "app/tool_pipeline.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app/cancel_link.hpp"
#include "app/server_state.hpp"
#include "drive_io.hpp"
#include "fake_extension.hpp"
#include "permission_question.hpp"
#include "schema/lazy_validator.hpp"
#include "tool_defs.hpp"
#include "util/random.hpp"

using namespace opentabs;
using namespace opentabs::app;
namespace fs = std::filesystem;

using namespace opentabs::app::testing;

namespace {

// What a scripted backend does with an admitted call.
enum class script { answer, fail, wait_for_cancel, time_out };

// A backend of one kind that records what reached it and answers as scripted.
class scripted_backend final : public tool_backend {
 public:
  scripted_backend(bool gated, bool has_target) : gated_(gated), has_target_(has_target) {}

  bool behind_gate() const override { return gated_; }
  call_target take_target(json::object& args) const override {
    if (!has_target_) return {};
    call_target t;
    t.tab_id = json::get_int(args, "tabId");
    args.erase("tabId");
    return t;
  }

  net::awaitable<void> await_ready(const tools::tool_def& tool) override {
    readied.push_back(tool.name);
    co_return;
  }

  net::awaitable<tools::call_result> dispatch(admitted_call& call) override {
    seen.push_back({call.tool.name, json::dump(call.args), call.target.tab_id});
    switch (plan) {
      case script::answer: co_return tools::call_result::text("done " + call.tool.name);
      case script::fail:
        call.audit.error = audit::make_audit_error(audit::audit_code::tool_error, "the backend refused");
        co_return tools::call_result::text("backend refused", true, errc::tool_failed);
      case script::wait_for_cancel: co_return co_await wait(call, asio::steady_timer::time_point::max());
      case script::time_out:
        co_return co_await wait(call, asio::steady_timer::clock_type::now() + std::chrono::milliseconds(5));
    }
    co_return tools::call_result::text("unscripted", true, errc::internal);
  }

  struct seen_call {
    std::string tool;
    std::string args;
    std::optional<std::int64_t> tab_id;
  };
  std::vector<seen_call> seen;
  std::vector<std::string> readied;  // the tools await_ready was asked about, in order
  script plan = script::answer;

 private:
  // Waits until `deadline` or the caller's cancel, whichever comes first.
  net::awaitable<tools::call_result> wait(admitted_call& call, asio::steady_timer::time_point deadline) {
    asio::steady_timer timer(co_await asio::this_coro::executor, deadline);
    bool cancelled = false;
    cancel_link link(call.options.cancel, [&] {
      cancelled = true;
      timer.cancel();
    });
    co_await timer.async_wait(net::as_value);
    if (cancelled) co_return tools::call_result::text("cancelled by the caller", true, errc::cancelled);
    co_return tools::call_result::text("no answer in time", true, errc::timeout);
  }

  bool gated_, has_target_;
};

tools::tool_def make_tool(std::string plugin, std::string base, tools::tool_kind kind) {
  auto t = tool_of_kind(std::move(plugin), std::move(base), kind);
  t.description = "a test tool";
  t.input_schema = json::parse_object(R"({"type":"object","properties":{"text":{"type":"string"}},
                                         "required":["text"],"additionalProperties":false})").value();
  t.validator = std::make_shared<schema::lazy_validator>(t.input_schema);
  return t;
}

fs::path fresh_dir() {
  auto dir = fs::temp_directory_path() / ("opentabs-pipeline-test-" + uuid_v4());
  fs::create_directories(dir);
  return dir;
}

struct pipeline_fixture {
  pipeline_fixture() {
    hub.set_reconnect_wait(std::chrono::milliseconds(0));  // no extension is ever expected
    state.catalog.registry.rebuild({make_tool("demo", "echo", tools::tool_kind::plugin)}, browser_tools,
                           {make_tool("platform", "plugin_probe", tools::tool_kind::platform)});
    set_permission(tools::permission::auto_);
  }
  ~pipeline_fixture() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }

  void set_permission(tools::permission p) {
    state.config.cfg.permissions["demo"].permission = p;
    state.config.cfg.permissions["browser"].permission = p;
  }

  // Runs one call to its end.
  tools::call_result call(std::string name, std::string_view args, tools::call_options options = {}) {
    std::optional<tools::call_result> out;
    start(std::move(name), args, std::move(options), out);
    io.restart();
    io.run();
    REQUIRE(out.has_value());
    return std::move(*out);
  }
  void start(std::string name, std::string_view args, tools::call_options options, std::optional<tools::call_result>& out) {
    opentabs::testing::spawn_into(io, pipeline.call_tool(std::move(name), json::parse_object(args).value(), std::move(options)), out);
  }
  template <class Done>
  void run_until(Done done) { opentabs::testing::run_until(io, done); }
  // Starts demo_echo {"text":"hi"} with `dialog` open on it and runs until its question waits
  // for an answer.
  void start_asked(agent_dialog& dialog, std::optional<tools::call_result>& out) {
    tools::call_options options;
    dialog.open_on(options);
    start("demo_echo", R"({"text":"hi"})", std::move(options), out);
    run_until([&] { return confirm.waiting() == 1; });
  }

  std::vector<audit::audit_entry> audits() const { return state.audit.query(audit::audit_query{}); }

  // The registry shares browser tools without copying (the real catalog lives for the whole
  // program): they must outlive it.
  const std::vector<tools::tool_def> browser_tools{make_tool("browser", "browser_probe", tools::tool_kind::browser)};
  fs::path dir = fresh_dir();
  asio::io_context io;
  server_state state{config::config_paths{dir}, dir};
  opentabs::app::testing::connection_log connections;
  extension_hub hub{io.get_executor(), dispatch_timing{}, connections};
  confirmations confirm{io.get_executor(), state.audit};
  recording_grants grants;
  scripted_backend plugin{true, true}, browser{true, false}, platform{false, false}, webmcp{true, false};
  tool_pipeline pipeline{state.config, state.catalog, state.audit, hub, confirm, grants, tool_backends{plugin, browser, platform, webmcp}};
};

std::string text_of(const tools::call_result& r) {
  REQUIRE_FALSE(r.content.empty());
  return std::string(*json::get_string(r.content.front().as_object(), "text"));
}

}  // namespace

TEST_CASE("an allowed call goes to its kind's backend without the platform arguments, and is audited once") {
  pipeline_fixture f;
  auto r = f.call("demo_echo", R"({"text":"hi","tabId":7})");
  CHECK_FALSE(r.is_error);
  CHECK(text_of(r) == "done demo_echo");
  REQUIRE(f.plugin.seen.size() == 1);
  CHECK(f.plugin.seen[0].args == R"({"text":"hi"})");
  CHECK(f.plugin.seen[0].tab_id == 7);
  CHECK(f.browser.seen.empty());

  auto b = f.call("browser_probe", R"({"text":"x"})");
  CHECK_FALSE(b.is_error);
  REQUIRE(f.browser.seen.size() == 1);
  CHECK(f.plugin.seen.size() == 1);

  auto entries = f.audits();
  REQUIRE(entries.size() == 2);
  CHECK(entries[1].tool == "demo_echo");
  CHECK(entries[1].plugin == "demo");
  CHECK(entries[1].success);
  CHECK_FALSE(entries[1].error);
  CHECK(entries[0].tool == "browser_probe");
}

TEST_CASE("an unknown tool is not_found with close names, and nothing is audited") {
  pipeline_fixture f;
  auto r = f.call("demo_ecko", R"({})");
  CHECK(r.is_error);
  CHECK(r.failure == errc::not_found);
  CHECK(text_of(r) == "Tool demo_ecko not found. Did you mean: demo_echo?");
  auto distant = f.call(std::string(300, 'z'), R"({})");
  CHECK(text_of(distant) == "Tool " + std::string(300, 'z') + " not found");
  CHECK(f.audits().empty());
  CHECK(f.plugin.seen.empty());
}

TEST_CASE("a tool whose permission is off is refused before validation and audited as denied") {
  pipeline_fixture f;
  f.set_permission(tools::permission::off);
  auto r = f.call("demo_echo", R"({"wrong":1})");
  CHECK(r.is_error);
  CHECK(r.failure == errc::tool_failed);
  CHECK(text_of(r).find("Plugin \"demo\"") != std::string::npos);
  CHECK(f.plugin.seen.empty());
  auto entries = f.audits();
  REQUIRE(entries.size() == 1);
  CHECK_FALSE(entries[0].success);
  REQUIRE(entries[0].error);
  CHECK(entries[0].error->code == "PERMISSION_DENIED");
}

TEST_CASE("invalid arguments never reach the backend; the audit says VALIDATION_ERROR") {
  pipeline_fixture f;
  auto plugin_call = f.call("demo_echo", R"({"text":5})");
  CHECK(plugin_call.is_error);
  CHECK(text_of(plugin_call) == "Invalid arguments:\n  - /text: must be string");  // the backend's check_arguments
  auto browser_call = f.call("browser_probe", R"({})");
  CHECK(text_of(browser_call).rfind("Invalid arguments:\n  - ", 0) == 0);
  CHECK(f.plugin.seen.empty());
  CHECK(f.browser.seen.empty());
  auto entries = f.audits();
  REQUIRE(entries.size() == 2);
  for (const auto& e : entries) {
    REQUIRE(e.error);
    CHECK(e.error->code == "VALIDATION_ERROR");
  }
}

TEST_CASE("a backend's failure is the call's result, audited once with the backend's detail") {
  pipeline_fixture f;
  f.plugin.plan = script::fail;
  auto r = f.call("demo_echo", R"({"text":"hi"})");
  CHECK(r.is_error);
  CHECK(text_of(r) == "backend refused");
  auto entries = f.audits();
  REQUIRE(entries.size() == 1);
  REQUIRE(entries[0].error);
  CHECK(entries[0].error->code == "TOOL_ERROR");
  CHECK(entries[0].error->message == "the backend refused");
}

TEST_CASE("a backend that times out or is cancelled ends the call with one failed audit entry") {
  pipeline_fixture f;
  f.plugin.plan = script::time_out;
  auto timed_out = f.call("demo_echo", R"({"text":"hi"})");
  CHECK(timed_out.failure == errc::timeout);

  f.plugin.plan = script::wait_for_cancel;
  tools::call_options options;
  options.cancel = std::make_shared<tools::cancel_source>();
  std::optional<tools::call_result> out;
  f.start("demo_echo", R"({"text":"hi"})", options, out);
  f.run_until([&] { return f.plugin.seen.size() == 2; });
  CHECK_FALSE(out.has_value());
  options.cancel->cancel();
  f.run_until([&] { return out.has_value(); });
  CHECK(out->failure == errc::cancelled);

  auto entries = f.audits();
  REQUIRE(entries.size() == 2);
  CHECK_FALSE(entries[0].success);
  CHECK_FALSE(entries[1].success);
  REQUIRE(entries[0].error);
  CHECK(entries[0].error->message == "cancelled by the caller");
}

TEST_CASE("platform tools skip the gate and the audit") {
  pipeline_fixture f;
  f.set_permission(tools::permission::off);
  auto r = f.call("plugin_probe", R"({"anything":true})");
  CHECK_FALSE(r.is_error);
  REQUIRE(f.platform.seen.size() == 1);
  CHECK(f.platform.seen[0].args == R"({"anything":true})");
  CHECK(f.audits().empty());
}

TEST_CASE("ask: the agent's answer decides; allow runs, always-allow grants, deny refuses — each audited once") {
  pipeline_fixture f;
  f.set_permission(tools::permission::ask);
  for (std::string_view decision : {"allow_once", "always_allow", "deny"}) {
    INFO(decision);
    const auto before = f.audits().size();
    const auto dispatched = f.plugin.seen.size();
    agent_dialog dialog;
    std::optional<tools::call_result> out;
    f.start_asked(dialog, out);
    CHECK(f.plugin.seen.size() == dispatched);  // not before the answer
    CHECK(dialog.answer(decision).empty());
    f.run_until([&] { return out.has_value(); });
    auto entries = f.audits();
    REQUIRE(entries.size() == before + 1);
    CHECK(entries[0].decided_by == audit::decided_by::elicitation);
    if (decision == "deny") {
      CHECK(out->is_error);
      CHECK(text_of(*out) == "Tool demo_echo was denied by the user.");
      CHECK(f.plugin.seen.size() == dispatched);
      REQUIRE(entries[0].error);
      CHECK(entries[0].error->code == "PERMISSION_DENIED");
    } else {
      CHECK_FALSE(out->is_error);
      CHECK(f.plugin.seen.size() == dispatched + 1);
      CHECK(entries[0].success);
    }
  }
  CHECK(f.grants.always == std::vector<std::string>{"demo_echo"});
}

TEST_CASE("ask: decided in the side panel first, the agent's open question is withdrawn, naming the decision") {
  pipeline_fixture f;
  f.set_permission(tools::permission::ask);
  agent_dialog dialog;
  std::optional<tools::call_result> out;
  f.start_asked(dialog, out);
  const auto id = f.confirm.open_ids().at(0);
  CHECK(f.confirm.answer(id, decision::deny, audit::decided_by::side_panel).decided());  // the agent's still open
  f.run_until([&] { return out.has_value(); });
  CHECK(dialog.withdrawn == std::vector<std::string>{"Already decided in the OpenTabs side panel: denied"});
  CHECK(text_of(*out) == "Tool demo_echo was denied by the user in the OpenTabs side panel.");
  auto entries = f.audits();
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].decided_by == audit::decided_by::side_panel);
  // The person answers "allow once" in the agent's dialog after all: the answer is told it was
  // not used, and the audit records it lost.
  CHECK(dialog.answer("allow_once") ==
        "Your answer in the agent's dialog (allow_once) was not used: the OpenTabs side panel had already decided (denied), and that "
        "decision took effect.");
  entries = f.audits();
  REQUIRE(entries.size() == 2);
  REQUIRE(entries[0].lost);
  CHECK(entries[0].lost->by == audit::decided_by::elicitation);
  CHECK(entries[0].lost->decision == "allow_once");
  CHECK(entries[0].decided_by == audit::decided_by::side_panel);
  CHECK(f.plugin.seen.empty());
}

TEST_CASE("ask in the agent's UI: the side panel decided first; the retry's own answer is told it lost, with the result") {
  pipeline_fixture f;
  f.set_permission(tools::permission::ask);
  agent_round_trip agent;
  tools::call_options options;
  agent.open_on(options);
  options.caller = "mcp proof A\ntest-client";
  auto asked = f.call("demo_echo", R"({"text":"hi"})", options);
  REQUIRE(asked.input_required);
  const auto id = f.confirm.open_ids().at(0);
  CHECK(f.confirm.answer(id, decision::allow, audit::decided_by::side_panel).decided());
  tools::call_options answered;
  agent.retry_answering(*asked.input_required, "deny");
  agent.open_on(answered);
  answered.caller = options.caller;
  auto r = f.call("demo_echo", R"({"text":"hi"})", answered);
  CHECK_FALSE(r.is_error);  // the side panel's "allow once" took effect
  CHECK(f.plugin.seen.size() == 1);
  REQUIRE(r.content.size() == 2);
  CHECK(std::string(*json::get_string(r.content.back().as_object(), "text")) ==
        "Your answer in the agent's dialog (deny) was not used: the OpenTabs side panel had already decided (allowed once), and that "
        "decision took effect.");
  auto entries = f.audits();
  REQUIRE(entries.size() == 2);
  CHECK(entries[0].success);  // the call, newest
  CHECK(entries[0].decided_by == audit::decided_by::side_panel);
  CHECK_FALSE(entries[0].lost);
  REQUIRE(entries[1].lost);  // the answer that lost
  CHECK(entries[1].lost->decision == "deny");
}

TEST_CASE("ask: open questions are counted per caller identity, not per client name") {
  pipeline_fixture f;
  f.set_permission(tools::permission::ask);
  agent_round_trip agent;
  auto ask_as = [&](std::string caller) {
    tools::call_options options;
    agent.open_on(options);
    options.caller = std::move(caller);
    return f.call("demo_echo", R"({"text":"hi"})", options);
  };
  for (std::size_t i = 0; i < confirmations::max_open_per_caller; ++i) REQUIRE(ask_as("mcp proof B\nclaude-code").input_required);
  auto refused = ask_as("mcp proof B\nclaude-code");
  CHECK(refused.is_error);
  CHECK(text_of(refused).find("permission questions of this client are waiting for the user (the limit is 16)") != std::string::npos);
  CHECK(ask_as("mcp proof A\nclaude-code").input_required);  // same name, other credential
}

TEST_CASE("ask: \"always allow\" in the agent's dialog is granted and the side panel gets the notice; its own always-allow does not") {
  pipeline_fixture f;
  f.set_permission(tools::permission::ask);
  fake_extension ext(f.hub, "profile-1");
  agent_dialog dialog;
  std::optional<tools::call_result> out;
  f.start_asked(dialog, out);
  CHECK(ext.calls("confirmation.request").size() == 1);  // asked in both places
  CHECK(dialog.answer("always_allow").empty());  // it decided: nothing to tell
  f.run_until([&] { return out.has_value(); });
  CHECK_FALSE(out->is_error);
  CHECK(f.grants.always == std::vector<std::string>{"demo_echo"});
  auto notices = ext.calls("confirmation.alwaysAllowed");
  REQUIRE(notices.size() == 1);
  CHECK(*json::get_string(notices[0].at("params").as_object(), "tool") == "echo");

  // The same answer clicked in the side panel: the person saw it there, no notice.
  std::optional<tools::call_result> again;
  f.start_asked(dialog, again);
  CHECK(f.confirm.answer(f.confirm.open_ids().at(0), decision::allow_always, audit::decided_by::side_panel).decided());
  f.run_until([&] { return again.has_value(); });
  CHECK(f.grants.always.size() == 2);
  CHECK(ext.calls("confirmation.alwaysAllowed").size() == 1);
}

TEST_CASE("ask: a question nobody can answer is refused; a caller's cancel ends the wait") {
  pipeline_fixture f;
  f.set_permission(tools::permission::ask);
  auto nobody = f.call("demo_echo", R"({"text":"hi"})");
  CHECK(text_of(nobody) == "Tool demo_echo requires approval but the extension is not connected.");

  tools::call_options options;
  options.cancel = std::make_shared<tools::cancel_source>();
  agent_dialog dialog;  // asked, and never answers
  dialog.open_on(options);
  std::optional<tools::call_result> out;
  f.start("demo_echo", R"({"text":"hi"})", options, out);
  f.run_until([&] { return f.confirm.waiting() == 1; });
  options.cancel->cancel();
  f.run_until([&] { return out.has_value(); });
  CHECK(text_of(*out) == "Tool demo_echo was cancelled.");
  CHECK(f.plugin.seen.empty());
  auto entries = f.audits();
  REQUIRE(entries.size() == 2);
  for (const auto& e : entries) {
    REQUIRE(e.error);
    CHECK(e.error->code == "PERMISSION_DENIED");
  }
}

TEST_CASE("ask in the agent's UI: the question is not audited; the retry that answers it is") {
  pipeline_fixture f;
  f.set_permission(tools::permission::ask);
  agent_round_trip agent;
  tools::call_options options;
  agent.open_on(options);
  auto asked = f.call("demo_echo", R"({"text":"hi"})", options);
  REQUIRE(asked.input_required);
  CHECK(f.audits().empty());
  CHECK(f.plugin.seen.empty());

  tools::call_options answered;
  agent.retry_answering(*asked.input_required, "allow_once");
  agent.open_on(answered);
  auto r = f.call("demo_echo", R"({"text":"hi"})", answered);
  CHECK_FALSE(r.is_error);
  CHECK(f.plugin.seen.size() == 1);
  auto entries = f.audits();
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].success);
  CHECK(entries[0].decided_by == audit::decided_by::elicitation);
}

TEST_CASE("answers to a question that was never asked are refused without an audit entry") {
  pipeline_fixture f;
  auto input = std::make_shared<tools::input_round>();
  input->request_state = "forged";
  tools::call_options options;
  options.input = input;
  auto r = f.call("demo_echo", R"({"text":"hi"})", options);
  CHECK(r.failure == errc::invalid_params);
  CHECK(f.audits().empty());
  CHECK(f.plugin.seen.empty());
}

TEST_CASE("ready: the backend's await_ready runs for an admitted call before it is asked about; the pipeline waits for nothing itself") {
  pipeline_fixture f;
  f.hub.set_reconnect_wait(std::chrono::minutes(1));  // an extension is expected back: only a backend may wait for it
  REQUIRE(f.hub.extension_expected());
  std::optional<tools::call_result> out;
  f.start("demo_echo", R"({"text":"hi"})", {}, out);
  f.io.restart();
  f.io.poll();  // no timer runs: a call that waited would not be done
  REQUIRE(out.has_value());
  CHECK_FALSE(out->is_error);
  CHECK(f.plugin.readied == std::vector<std::string>{"demo_echo"});

  CHECK(f.call("demo_echo", R"({"text":5})").is_error);  // refused by admit: not readied
  f.set_permission(tools::permission::ask);
  agent_dialog dialog;
  std::optional<tools::call_result> asked;
  f.start_asked(dialog, asked);
  CHECK(f.plugin.readied.size() == 2);  // readied before the question
  CHECK(f.plugin.seen.size() == 1);
  dialog.answer("deny");
  f.run_until([&] { return asked.has_value(); });
  CHECK(f.plugin.readied.size() == 2);
  CHECK_FALSE(f.call("plugin_probe", "{}").is_error);
  CHECK(f.platform.readied.empty());  // platform tools are not behind the gate: nothing to wait for
}
