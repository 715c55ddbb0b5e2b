// Browser tool calls from the pipeline to the extension and back, over the real hub and
// fake extensions: the browser.* request with the caller's clientGroup and the invocation
// notices around it, the profile a tabId or a connectionId picks, ★ tools asked of every
// profile and merged (one failing profile reported, browser_list_tabs routing later calls),
// the extension's error, a timeout and a drop mid-call, plugin_list_tabs answered here,
// who holds which tab, a client's end, and the bounded wait for an extension expected back.
#include "app/browser_backend.hpp"

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

tools::call_options as_client(std::string name) {
  tools::call_options options;
  options.client = std::move(name);
  return options;
}

}  // namespace

TEST_CASE("a browser call goes out as its browser.* request with the caller's clientGroup, between the invocation notices") {
  backend_fixture f;
  fake_extension ext(f.hub, "profile-1");
  const std::string method = f.tool("browser_open_tab").method;
  REQUIRE_FALSE(method.empty());
  std::optional<tools::call_result> out;
  f.start("browser_open_tab", R"({"url":"https://example.com/"})", out, as_client("claude-code"));
  auto request = f.await_request(ext, method);
  const auto& params = params_of(request);
  CHECK(*json::get_string(params, "url") == "https://example.com/");
  CHECK(*json::get_string(params, "clientGroup") == "claude-code");
  CHECK(params.at(kDispatchIdKey) == request.at("id"));
  CHECK(methods_seen(ext) == std::vector<std::string>{"tool.invocationStart", method});
  CHECK(*json::get_string(params_of(ext.calls("tool.invocationStart").at(0)), "plugin") == "browser");

  CHECK(ext.reply(request, json::object{{"id", 55}, {"url", "https://example.com/"}}));
  f.run_until([&] { return out.has_value(); });
  CHECK_FALSE(out->is_error);
  CHECK(json::parse_object(text_of(*out))->at("id").as_int64() == 55);
  CHECK(params_of(ext.calls("tool.invocationEnd").at(0)).at("success").as_bool());
  // The client holds the tab it opened until it is closed through a tool.
  CHECK(json::dump(f.holders.to_json()) == R"([{"client":"claude-code","tabs":[55]}])");

  std::optional<tools::call_result> closed;
  f.start("browser_close_tab", R"({"tabId":55})", closed, as_client("claude-code"));
  auto close = f.await_request(ext, f.tool("browser_close_tab").method);
  CHECK(json::get_int(params_of(close), "tabId") == 55);
  CHECK(ext.reply(close, json::object{{"closed", true}}));
  f.run_until([&] { return closed.has_value(); });
  CHECK_FALSE(closed->is_error);
  CHECK(json::dump(f.holders.to_json()).find("55") == std::string::npos);
  CHECK(f.audits().size() == 2);
}

TEST_CASE("a tabId goes to the profile that reported the tab; a connectionId names the profile") {
  backend_fixture f;
  fake_extension a(f.hub, "A-profile");
  fake_extension b(f.hub, "B-profile");
  b.connection()->tabs.set("demo", plugin_tabs{tab_state::ready, {reported_tab(31, "https://work.example/", true)}});
  const std::string method = f.tool("browser_close_tab").method;

  std::optional<tools::call_result> by_tab;
  f.start("browser_close_tab", R"({"tabId":31})", by_tab);
  CHECK(b.reply(f.await_request(b, method), json::object{}));
  f.run_until([&] { return by_tab.has_value(); });
  CHECK_FALSE(by_tab->is_error);

  std::optional<tools::call_result> named;
  f.start("browser_open_tab", R"({"url":"https://example.com/","connectionId":"B-profile"})", named);
  CHECK(b.reply(f.await_request(b, f.tool("browser_open_tab").method), json::object{{"id", 1}}));
  f.run_until([&] { return named.has_value(); });
  CHECK_FALSE(named->is_error);
  CHECK(a.calls(method).empty());
  CHECK(a.calls(f.tool("browser_open_tab").method).empty());
}

TEST_CASE("a ★ tool asks every profile and merges the answers; a failing profile is reported; browser_list_tabs routes later calls") {
  backend_fixture f;
  fake_extension a(f.hub, "A-profile");
  fake_extension b(f.hub, "B-profile");
  const auto& list = f.tool("browser_list_tabs");
  REQUIRE(list.fan_out);
  std::optional<tools::call_result> out;
  f.start("browser_list_tabs", "{}", out);
  auto to_a = f.await_request(a, list.method);
  auto to_b = f.await_request(b, list.method);
  CHECK(a.reply(to_a, json::array{json::object{{"id", 1}}}));
  CHECK(b.reply(to_b, json::array{json::object{{"id", 2}}}));
  f.run_until([&] { return out.has_value(); });
  CHECK_FALSE(out->is_error);
  CHECK(text_of(*out) == R"([{"id":1,"connectionId":"A-profile"},{"id":2,"connectionId":"B-profile"}])");
  // The listing told the hub that tab 2 is B's (no tab map reported it).
  CHECK(f.hub.choose_connection("", 2, "") == "B-profile");
  // One call, one pair of notices per profile.
  CHECK(a.calls("tool.invocationStart").size() == 1);
  CHECK(a.calls("tool.invocationEnd").size() == 1);

  std::optional<tools::call_result> half;
  f.start("browser_list_tabs", "{}", half);
  CHECK(a.reply(f.await_request(a, list.method, 2), json::array{json::object{{"id", 1}}}));
  CHECK(b.reply_error(f.await_request(b, list.method, 2), extension_code::tab_closed, "profile busy"));
  f.run_until([&] { return half.has_value(); });
  CHECK_FALSE(half->is_error);
  CHECK(text_of(*half) == R"([{"id":1,"connectionId":"A-profile"},{"connectionId":"B-profile","error":"profile busy"}])");

  std::optional<tools::call_result> none;
  f.start("browser_list_tabs", "{}", none);
  CHECK(a.reply_error(f.await_request(a, list.method, 3), extension_code::tab_closed, "no"));
  CHECK(b.reply_error(f.await_request(b, list.method, 3), extension_code::tab_closed, "no"));
  f.run_until([&] { return none.has_value(); });
  CHECK(none->is_error);
  CHECK(text_of(*none) == "Browser tool error: no");
}

TEST_CASE("the extension's error, a timeout and a drop mid-call end the call as a browser tool error, audited once each") {
  backend_fixture f;
  auto ext = std::make_unique<fake_extension>(f.hub, "profile-1");
  const std::string method = f.tool("browser_close_tab").method;

  std::optional<tools::call_result> refused;
  f.start("browser_close_tab", R"({"tabId":9})", refused);
  CHECK(ext->reply_error(f.await_request(*ext, method), extension_code::tab_closed, "Tab 9 does not exist"));
  f.run_until([&] { return refused.has_value(); });
  CHECK(text_of(*refused) == "Browser tool error: Tab 9 does not exist");

  std::optional<tools::call_result> timed_out;
  f.start("browser_close_tab", R"({"tabId":9})", timed_out);
  f.run_until([&] { return timed_out.has_value(); });
  CHECK(text_of(*timed_out) == "Browser tool error: Dispatch " + method + " timed out after " +
                                   std::to_string(backend_fixture::request_timeout.count()) + "ms");

  std::optional<tools::call_result> dropped;
  f.start("browser_close_tab", R"({"tabId":9})", dropped);
  f.await_request(*ext, method, 3);
  ext.reset();
  f.run_until([&] { return dropped.has_value(); });
  CHECK(text_of(*dropped) == "Browser tool error: Extension disconnected");

  auto none = f.call("browser_close_tab", R"({"tabId":9})");
  CHECK(text_of(none) == "Browser tool error: " + extension_not_connected_text(f.hub));

  auto entries = f.audits();
  REQUIRE(entries.size() == 4);
  for (const auto& e : entries) {
    CHECK_FALSE(e.success);
    CHECK(e.error);
  }
  CHECK(entries[3].error->code == std::to_string(extension_code::tab_closed));
  CHECK(entries[0].error->message == "Extension not connected");
}

TEST_CASE("a server-side browser tool is served by browser_tools first, with its own requests and no invocation notices") {
  backend_fixture f;
  fake_extension ext(f.hub, "profile-1");
  std::optional<tools::call_result> out;
  f.start("browser_get_network_requests", R"({"tabId":5})", out, as_client("cursor"));
  auto request = f.await_request(ext, "browser.getNetworkRequests");
  CHECK(json::get_int(params_of(request), "tabId") == 5);
  CHECK(*json::get_string(params_of(request), "clientGroup") == "cursor");
  CHECK(ext.reply(request, json::object{{"requests", json::array{}}}));
  f.run_until([&] { return out.has_value(); });
  CHECK_FALSE(out->is_error);
  CHECK(text_of(*out).rfind("0 requests in tab 5", 0) == 0);
  CHECK(methods_seen(ext) == std::vector<std::string>{"browser.getNetworkRequests"});

  std::optional<tools::call_result> refused;
  f.start("browser_get_network_requests", R"({"tabId":5})", refused);
  CHECK(ext.reply_error(f.await_request(ext, "browser.getNetworkRequests", 2), extension_code::tab_closed, "gone"));
  f.run_until([&] { return refused.has_value(); });
  CHECK(text_of(*refused) == "Browser tool error: gone");
  auto entries = f.audits();
  REQUIRE(entries.size() == 2);
  CHECK(entries[0].error);  // a served failure is audited as one
}

TEST_CASE("plugin_list_tabs is answered from the profiles' tab reports, without a request") {
  backend_fixture f;
  fake_extension ext(f.hub, "profile-1");
  ext.connection()->tabs.set("demo", plugin_tabs{tab_state::ready, {reported_tab(40, "https://work.example/", true)}});
  auto r = f.call("plugin_list_tabs", R"({"plugin":"demo"})");
  CHECK_FALSE(r.is_error);
  auto listed = json::parse(text_of(r));
  REQUIRE(listed);
  CHECK(json::dump(*listed).find(R"("tabId":40)") != std::string::npos);
  auto unknown = f.call("plugin_list_tabs", R"({"plugin":"nope"})");
  CHECK(text_of(unknown) == R"({"error":"Plugin \"nope\" not found. Available plugins: demo"})");
  CHECK(methods_seen(ext).empty());
}

TEST_CASE("a client's end forgets the tabs it held and tells every profile") {
  backend_fixture f;
  fake_extension a(f.hub, "A-profile");
  fake_extension b(f.hub, "B-profile");
  f.holders.touched("cursor", 3);
  f.pipeline.client_ended("cursor");
  CHECK(f.holders.to_json().empty());
  for (auto* ext : {&a, &b}) {
    auto ended = ext->calls("browser.clientEnded");
    REQUIRE(ended.size() == 1);
    CHECK(*json::get_string(params_of(ended[0]), "clientGroup") == "cursor");
  }
}

TEST_CASE("await_ready: a browser call waits for an extension expected back, not for its tab report") {
  backend_fixture f;
  f.hub.set_reconnect_wait(std::chrono::minutes(1));  // the server has just started: one is expected
  std::optional<bool> ready;
  opentabs::testing::spawn_into(f.io, ready_of(f.browser, f.tool("browser_list_tabs")), ready);
  f.settle();
  CHECK_FALSE(ready.has_value());
  fake_extension ext(f.hub, "profile-1");
  f.run_until([&] { return ready.has_value(); });  // no tab.syncAll needed

  // The whole call, started while one is expected and answered once it is there.
  ext.detach();
  std::optional<tools::call_result> out;
  f.start("browser_list_tabs", "{}", out);
  f.settle();
  CHECK_FALSE(out.has_value());
  fake_extension back(f.hub, "profile-1");
  CHECK(back.reply(f.await_request(back, f.tool("browser_list_tabs").method), json::array{}));
  f.run_until([&] { return out.has_value(); });
  CHECK(text_of(*out) == "[]");
}
