// Plugin tool calls from the pipeline to the extension and back, over the real hub and a
// fake extension: the tool.dispatch frame and its tab, the side panel's invocation notices
// around it, which tab and which profile an instance or a tabId picks, the extension's
// error answers, a timeout, a drop mid-call, the concurrency cap, and the bounded wait for
// an extension that is expected back.
#include "app/plugin_backend.hpp"

#include <doctest/doctest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/extension_wire.hpp"
#include "backend_fixture.hpp"

using namespace opentabs;
using namespace opentabs::app;
using namespace opentabs::app::testing;

namespace {

const json::object& params_of(const json::object& frame) { return frame.at("params").as_object(); }

// The demo plugin's tabs as one profile reports them.
void report_demo_tabs(fake_extension& ext, tab_state state, std::vector<tab_info> tabs) {
  ext.connection()->tabs.set("demo", plugin_tabs{state, std::move(tabs)});
}

}  // namespace

TEST_CASE("a plugin call goes out as tool.dispatch between invocationStart and invocationEnd; the answer's output is the result") {
  backend_fixture f;
  fake_extension ext(f.hub, "profile-1");
  std::optional<tools::call_result> out;
  f.start("demo_echo", R"({"text":"hi","tabId":7})", out);
  auto request = f.await_request(ext, "tool.dispatch");
  const auto& params = params_of(request);
  CHECK(*json::get_string(params, "plugin") == "demo");
  CHECK(*json::get_string(params, "tool") == "echo");
  CHECK(json::dump(params.at("input")) == R"({"text":"hi"})");  // the platform arguments taken out
  CHECK(json::get_int(params, "tabId") == 7);
  CHECK(params.at(kDispatchIdKey) == request.at("id"));
  CHECK(methods_seen(ext) == std::vector<std::string>{"tool.invocationStart", "tool.dispatch"});
  CHECK(*json::get_string(params_of(ext.calls("tool.invocationStart").at(0)), "tool") == "echo");

  CHECK(ext.reply(request, json::object{{"output", json::object{{"said", "hi"}}}}));
  f.run_until([&] { return out.has_value(); });
  CHECK_FALSE(out->is_error);
  CHECK(text_of(*out) == R"({"said":"hi"})");
  auto ends = ext.calls("tool.invocationEnd");
  REQUIRE(ends.size() == 1);
  CHECK(params_of(ends[0]).at("success").as_bool());
  CHECK(*json::get_string(params_of(ends[0]), "plugin") == "demo");
  auto entries = f.audits();
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].success);
}

TEST_CASE("an instance picks the ready tab on its host; an unknown instance or no open tab is the caller's error, sent nowhere") {
  backend_fixture f;
  fake_extension ext(f.hub, "profile-1");
  report_demo_tabs(ext, tab_state::ready,
                   {reported_tab(10, "https://home.example/", true), reported_tab(11, "https://work.example/a", false),
                    reported_tab(12, "https://work.example/b", true)});
  std::optional<tools::call_result> out;
  f.start("demo_echo", R"({"text":"hi","instance":"work"})", out);
  auto request = f.await_request(ext, "tool.dispatch");
  CHECK(json::get_int(params_of(request), "tabId") == 12);
  CHECK(ext.reply(request, json::object{{"output", true}}));
  f.run_until([&] { return out.has_value(); });
  CHECK_FALSE(out->is_error);

  auto unknown = f.call("demo_echo", R"({"text":"hi","instance":"home"})");
  CHECK(unknown.is_error);
  CHECK(text_of(unknown) == "Unknown instance \"home\" for plugin \"demo\". Valid instances: work");

  report_demo_tabs(ext, tab_state::ready, {reported_tab(10, "https://home.example/", true)});
  auto closed = f.call("demo_echo", R"({"text":"hi","instance":"work"})");
  CHECK(text_of(closed) == "No open tab found for instance \"work\" (*://work.example/*). Open the site in the browser first.");

  CHECK(ext.calls("tool.dispatch").size() == 1);
  // Every call was announced and ended, the refused ones as failures.
  auto ends = ext.calls("tool.invocationEnd");
  REQUIRE(ends.size() == 3);
  CHECK(params_of(ends[0]).at("success").as_bool());
  CHECK_FALSE(params_of(ends[1]).at("success").as_bool());
  CHECK_FALSE(params_of(ends[2]).at("success").as_bool());
}

TEST_CASE("with two profiles, the call goes to the one that has the tab, else to the one where the plugin is ready") {
  backend_fixture f;
  fake_extension a(f.hub, "A-profile");
  fake_extension b(f.hub, "B-profile");
  report_demo_tabs(a, tab_state::unavailable, {reported_tab(20, "https://work.example/", false)});
  report_demo_tabs(b, tab_state::ready, {reported_tab(21, "https://work.example/", true)});

  std::optional<tools::call_result> to_tab;
  f.start("demo_echo", R"({"text":"hi","tabId":20})", to_tab);
  CHECK(a.reply(f.await_request(a, "tool.dispatch"), json::object{{"output", "from A"}}));
  f.run_until([&] { return to_tab.has_value(); });
  CHECK(text_of(*to_tab) == R"("from A")");

  std::optional<tools::call_result> anywhere;
  f.start("demo_echo", R"({"text":"hi"})", anywhere);
  auto request = f.await_request(b, "tool.dispatch");
  CHECK_FALSE(params_of(request).contains("tabId"));
  CHECK(b.reply(request, json::object{{"output", "from B"}}));
  f.run_until([&] { return anywhere.has_value(); });
  CHECK(text_of(*anywhere) == R"("from B")");
  CHECK(a.calls("tool.dispatch").size() == 1);
  // The activity feed is every profile's.
  CHECK(a.calls("tool.invocationEnd").size() == 2);
  CHECK(b.calls("tool.invocationEnd").size() == 2);
}

TEST_CASE("the extension's error answers become the call's error result, audited with the extension's code") {
  backend_fixture f;
  fake_extension ext(f.hub, "profile-1");

  std::optional<tools::call_result> closed;
  f.start("demo_echo", R"({"text":"hi","tabId":7})", closed);
  CHECK(ext.reply_error(f.await_request(ext, "tool.dispatch"), extension_code::tab_closed, "No matching tab"));
  f.run_until([&] { return closed.has_value(); });
  CHECK(closed->is_error);
  CHECK(text_of(*closed) == "Tab closed: No matching tab");

  // An adapter's structured error: its code goes to the audit.
  std::optional<tools::call_result> structured;
  f.start("demo_echo", R"({"text":"hi"})", structured);
  auto request = f.await_request(ext, "tool.dispatch", 2);
  json::object error{{"code", -32603},
                     {"message", "not logged in"},
                     {"data", json::object{{"code", "AUTH_REQUIRED"}, {"category", "auth"}}}};
  CHECK(f.hub.receive(*ext.connection(), json::dump(json::object{{"jsonrpc", "2.0"}, {"id", request.at("id")}, {"error", error}})));
  f.run_until([&] { return structured.has_value(); });
  CHECK(structured->is_error);
  CHECK(text_of(*structured).rfind("[ERROR code=AUTH_REQUIRED category=auth", 0) == 0);

  auto entries = f.audits();  // newest first
  REQUIRE(entries.size() == 2);
  REQUIRE(entries[0].error);
  CHECK(entries[0].error->code == "AUTH_REQUIRED");
  CHECK(entries[0].error->category == "auth");
  REQUIRE(entries[1].error);
  CHECK(entries[1].error->code == std::to_string(extension_code::tab_closed));
  for (const auto& end : ext.calls("tool.invocationEnd")) CHECK_FALSE(params_of(end).at("success").as_bool());
}

TEST_CASE("an unanswered call times out, and a profile that drops mid-call fails its call at once") {
  backend_fixture f;
  auto ext = std::make_unique<fake_extension>(f.hub, "profile-1");
  std::optional<tools::call_result> timed_out;
  f.start("demo_echo", R"({"text":"hi"})", timed_out);
  f.run_until([&] { return timed_out.has_value(); });
  CHECK(timed_out->is_error);
  CHECK(text_of(*timed_out) == "Tool dispatch error: Dispatch demo/echo timed out after " +
                                   std::to_string(backend_fixture::request_timeout.count()) + "ms");
  CHECK_FALSE(params_of(ext->calls("tool.invocationEnd").at(0)).at("success").as_bool());

  std::optional<tools::call_result> dropped;
  f.start("demo_echo", R"({"text":"hi"})", dropped);
  f.await_request(*ext, "tool.dispatch", 2);
  ext.reset();
  f.run_until([&] { return dropped.has_value(); });
  CHECK(text_of(*dropped) == "Tool dispatch error: Extension disconnected");
  auto entries = f.audits();
  REQUIRE(entries.size() == 2);
  CHECK_FALSE(entries[0].success);
  CHECK_FALSE(entries[1].success);
}

TEST_CASE("without an extension a plugin call fails at once, naming where to load it from; a caller's cancel ends the wait") {
  backend_fixture f;
  f.hub.set_install_hint("/home/me/.opentabs/extension");
  auto r = f.call("demo_echo", R"({"text":"hi"})");
  CHECK(r.is_error);
  CHECK(text_of(r) == extension_not_connected_text(f.hub));
  CHECK(text_of(r).find("/home/me/.opentabs/extension") != std::string::npos);
  auto entries = f.audits();
  REQUIRE(entries.size() == 1);
  REQUIRE(entries[0].error);
  CHECK(entries[0].error->message == "Extension not connected");

  fake_extension ext(f.hub, "profile-1");
  tools::call_options options;
  options.cancel = std::make_shared<tools::cancel_source>();
  std::optional<tools::call_result> cancelled;
  f.start("demo_echo", R"({"text":"hi"})", cancelled, options);
  f.await_request(ext, "tool.dispatch");
  options.cancel->cancel();
  f.run_until([&] { return cancelled.has_value(); });
  CHECK(text_of(*cancelled) == "Tool dispatch error: Cancelled by the client");
}

TEST_CASE("progress reports reach the caller; one plugin has at most kMaxConcurrentPerPlugin calls in flight") {
  backend_fixture f;
  fake_extension ext(f.hub, "profile-1");
  std::vector<std::string> progress;
  tools::call_options reporting;
  reporting.on_progress = [&](const tools::progress_update& p) { progress.push_back(p.message); };
  std::vector<std::optional<tools::call_result>> results(kMaxConcurrentPerPlugin);
  f.start("demo_echo", R"({"text":"0"})", results[0], reporting);
  auto first = f.await_request(ext, "tool.dispatch");
  CHECK(f.hub.report_progress(std::string(*json::get_string(params_of(first), kDispatchIdKey)), 1, 2, "half way"));
  CHECK(progress == std::vector<std::string>{"half way"});

  for (std::size_t i = 1; i < kMaxConcurrentPerPlugin; ++i) f.start("demo_echo", R"({"text":"n"})", results[i]);
  f.await_request(ext, "tool.dispatch", kMaxConcurrentPerPlugin);
  auto refused = f.call("demo_echo", R"({"text":"one too many"})");
  CHECK(refused.failure == errc::rate_limited);
  CHECK(text_of(refused) == "Too many concurrent dispatches for plugin \"demo\" (limit: 25). Wait for in-flight requests to complete.");
  CHECK(ext.calls("tool.dispatch").size() == kMaxConcurrentPerPlugin);

  for (const auto& request : ext.calls("tool.dispatch")) CHECK(ext.reply(request, json::object{{"output", 1}}));
  f.run_until([&] { return std::ranges::all_of(results, [](const auto& r) { return r.has_value(); }); });
  auto entries = f.audits();
  REQUIRE(entries.size() == kMaxConcurrentPerPlugin + 1);
  REQUIRE(entries[kMaxConcurrentPerPlugin].error);  // the refused one, written before the others ended
  CHECK(entries[kMaxConcurrentPerPlugin].error->code == "RATE_LIMITED");
}

TEST_CASE("await_ready: with an extension expected back, a plugin call waits for it and for its tab report") {
  backend_fixture f;
  f.hub.set_reconnect_wait(std::chrono::minutes(1));  // the server has just started: one is expected
  REQUIRE(f.hub.extension_expected());
  std::optional<tools::call_result> out;
  f.start("demo_echo", R"({"text":"hi"})", out);
  f.settle();
  CHECK_FALSE(out.has_value());  // waiting, not failed

  fake_extension ext(f.hub, "profile-1");
  f.settle();
  CHECK(ext.calls("tool.dispatch").empty());  // connected, but its adapters are not reported yet
  CHECK(ext.frames.empty());

  f.hub.tabs_synced(*ext.connection());
  CHECK(ext.reply(f.await_request(ext, "tool.dispatch"), json::object{{"output", "late but fine"}}));
  f.run_until([&] { return out.has_value(); });
  CHECK_FALSE(out->is_error);
}

TEST_CASE("await_ready: the wait is bounded; a call still without an extension then fails as not connected") {
  backend_fixture f;
  f.hub.set_reconnect_wait(std::chrono::milliseconds(20));
  { fake_extension dropped(f.hub, "profile-1"); }  // the extension just left: it is expected back
  std::optional<bool> waited;
  opentabs::testing::spawn_into(f.io, ready_of(f.plugins, f.tool("demo_echo")), waited);
  f.run_until([&] { return waited.has_value(); });  // its deadline passed with no extension

  auto r = f.call("demo_echo", R"({"text":"hi"})");
  CHECK(text_of(r) == extension_not_connected_text(f.hub));
}

TEST_CASE("await_ready comes before the permission question: the side panel of the returning extension is asked") {
  backend_fixture f;
  f.set_permission(tools::permission::ask);
  f.hub.set_reconnect_wait(std::chrono::minutes(1));
  std::optional<tools::call_result> out;
  f.start("demo_echo", R"({"text":"hi"})", out);
  f.settle();
  CHECK_FALSE(out.has_value());  // not refused as "requires approval but the extension is not connected"

  fake_extension ext(f.hub, "profile-1");
  f.hub.tabs_synced(*ext.connection());
  f.run_until([&] { return f.confirm.waiting() == 1; });
  REQUIRE(ext.calls("confirmation.request").size() == 1);
  CHECK(f.confirm.answer(f.confirm.open_ids().at(0), decision::allow, audit::decided_by::side_panel).decided());
  CHECK(ext.reply(f.await_request(ext, "tool.dispatch"), json::object{{"output", "asked first"}}));
  f.run_until([&] { return out.has_value(); });
  CHECK(text_of(*out) == R"("asked first")");
}
