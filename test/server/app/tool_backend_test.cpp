// What every tool backend shares: the kind → backend table, the defaults (no platform
// arguments, no validator of its own, the first schema violation as the caller's text, no
// wait before a call), the "extension not connected" text, and the bounded wait for an
// extension expected back that the browser-facing backends use.
#include "app/tool_backend.hpp"

#include <doctest/doctest.h>

#include <optional>

#include "app/extension_hub.hpp"
#include "drive_io.hpp"
#include "fake_extension.hpp"
#include "schema/validator.hpp"

using namespace opentabs;
using namespace opentabs::app;

namespace {

// The smallest backend: everything but dispatch is the default.
class plain_backend final : public tool_backend {
 public:
  net::awaitable<tools::call_result> dispatch(admitted_call&) override { co_return tools::call_result::text("plain"); }
};

net::awaitable<bool> waited_for(extension_hub& hub, const tools::tool_def& tool, bool tabs_too) {
  co_await wait_for_expected_extension(hub, tool, tabs_too);
  co_return hub.connected();
}

// Why `backend` has no validator for `tool` (empty when it has one).
net::awaitable<std::string> validator_refusal(tool_backend& backend, const tools::tool_def& tool) {
  auto validator = co_await backend.validator_for(tool);
  co_return validator ? std::string() : validator.err().message;
}

tools::tool_def named(std::string name) {
  tools::tool_def t;
  t.name = std::move(name);
  return t;
}

}  // namespace

TEST_CASE("each kind has its slot in the table") {
  plain_backend plugin, browser, platform, webmcp;
  tool_backends table{plugin, browser, platform, webmcp};
  CHECK(&table.for_kind(tools::tool_kind::plugin) == &plugin);
  CHECK(&table.for_kind(tools::tool_kind::browser) == &browser);
  CHECK(&table.for_kind(tools::tool_kind::platform) == &platform);
  CHECK(&table.for_kind(tools::tool_kind::webmcp) == &webmcp);
}

TEST_CASE("the defaults: behind the gate, no platform arguments, no validator of its own, the first violation as text") {
  asio::io_context io;
  plain_backend b;
  CHECK(b.behind_gate());
  json::object args{{"tabId", 3}, {"text", "x"}};
  auto target = b.take_target(args);
  CHECK_FALSE(target.tab_id);
  CHECK(target.instance.empty());
  CHECK(args.size() == 2);  // left as they are

  const auto tool = named("demo_echo");
  std::optional<std::string> refusal;
  opentabs::testing::spawn_into(io, validator_refusal(b, tool), refusal);
  opentabs::testing::run_until(io, [&] { return refusal.has_value(); });
  CHECK(*refusal == "Tool \"demo_echo\" cannot be called: its input schema could not be compiled (see the server log).");

  auto compiled = schema::validator::compile(json::parse_object(R"({"type":"object","properties":{"text":{"type":"string"}}})").value());
  REQUIRE(compiled);
  CHECK(b.check_arguments(**compiled, tool, json::object{{"text", "fine"}}));
  auto refused = b.check_arguments(**compiled, tool, json::object{{"text", 5}});
  REQUIRE_FALSE(refused);
  CHECK(refused.err().message == "Invalid arguments:\n  - /text: must be string");
}

TEST_CASE("the default await_ready waits for nothing, even while an extension is expected") {
  asio::io_context io;
  app::testing::connection_log connections;
  extension_hub hub(io.get_executor(), dispatch_timing{}, connections);
  hub.set_reconnect_wait(std::chrono::minutes(1));
  REQUIRE(hub.extension_expected());
  plain_backend b;
  const auto tool = named("plugin_inspect");
  bool ready = false;
  asio::co_spawn(io, b.await_ready(tool), [&](std::exception_ptr e) {
    REQUIRE_FALSE(e);
    ready = true;
  });
  io.poll();  // ready handlers only: a wait on a timer would leave it false
  CHECK(ready);
}

TEST_CASE("extension not connected: what to do, with where to load the extension from when known") {
  asio::io_context io;
  app::testing::connection_log connections;
  extension_hub hub(io.get_executor(), dispatch_timing{}, connections);
  CHECK(extension_not_connected_text(hub) ==
        "Extension not connected. Please ensure the OpenTabs Chrome extension is running: it connects within a few seconds of the "
        "server starting; then call the tool again.");
  hub.set_install_hint("/opt/ext");
  CHECK(extension_not_connected_text(hub).find("running (loaded unpacked from /opt/ext): it connects") != std::string::npos);
}

TEST_CASE("wait_for_expected_extension: returns at once when none is expected, else when one connects (and, if asked, reports tabs)") {
  asio::io_context io;
  app::testing::connection_log connections;
  extension_hub hub(io.get_executor(), dispatch_timing{}, connections);
  const auto tool = named("demo_echo");

  hub.set_reconnect_wait(std::chrono::milliseconds(0));
  std::optional<bool> not_expected;
  opentabs::testing::spawn_into(io, waited_for(hub, tool, true), not_expected);
  io.poll();
  REQUIRE(not_expected.has_value());
  CHECK_FALSE(*not_expected);

  hub.set_reconnect_wait(std::chrono::minutes(1));
  std::optional<bool> plain, with_tabs;
  opentabs::testing::spawn_into(io, waited_for(hub, tool, false), plain);
  opentabs::testing::spawn_into(io, waited_for(hub, tool, true), with_tabs);
  io.restart();
  io.poll();
  CHECK_FALSE(plain.has_value());
  CHECK_FALSE(with_tabs.has_value());
  app::testing::fake_extension ext(hub, "profile-1");
  opentabs::testing::run_until(io, [&] { return plain.has_value(); });
  CHECK(*plain);
  io.restart();
  io.poll();
  CHECK_FALSE(with_tabs.has_value());  // still waiting for tab.syncAll
  hub.tabs_synced(*ext.connection());
  opentabs::testing::run_until(io, [&] { return with_tabs.has_value(); });
  CHECK(*with_tabs);
}
