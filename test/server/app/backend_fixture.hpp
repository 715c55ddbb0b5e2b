// The real tool path from the pipeline to the extension channel, without sockets: a
// tool_pipeline whose plugin and browser slots are the real plugin_backend and
// browser_backend (the browser one with the real server-side browser_tools), on a real
// extension_hub whose requests time out after a short deadline, with fake extensions
// (fake_extension.hpp) attached by the test.  The catalog holds one plugin, "demo", with
// one tool (demo_echo {"text"}) and one instance ("work" on work.example), and the browser
// tool catalog; both are allowed (auto) unless the test says otherwise.  For the backends'
// tests and those of the pipeline–hub join.
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app/browser_backend.hpp"
#include "app/browser_tools.hpp"
#include "app/client_tabs.hpp"
#include "app/plugin_backend.hpp"
#include "app/server_state.hpp"
#include "app/tool_pipeline.hpp"
#include "drive_io.hpp"
#include "fake_extension.hpp"
#include "permission_question.hpp"
#include "schema/lazy_validator.hpp"
#include "tool_defs.hpp"
#include "tools/browser_catalog.hpp"
#include "util/random.hpp"

namespace opentabs::app::testing {

// The slots of the kinds these tests do not call: a call that reaches one is a test error.
class unused_backend final : public tool_backend {
 public:
  net::awaitable<tools::call_result> dispatch(admitted_call& call) override {
    FAIL("a call of " << call.tool.name << " reached a backend the test does not use");
    co_return tools::call_result::text("unused", true, errc::internal);
  }
};

// A tab as the extension reports it in tab.syncAll / tab.stateChanged.
inline tab_info reported_tab(std::int64_t id, std::string url, bool ready) {
  tab_info t;
  t.tab_id = id;
  t.url = std::move(url);
  t.title = "a tab";
  t.ready = ready;
  return t;
}

struct backend_fixture {
  // Requests unanswered for this long time out (the hub's dispatch_timing, as in production).
  static constexpr std::chrono::milliseconds request_timeout{40};

  backend_fixture() {
    hub.set_reconnect_wait(std::chrono::milliseconds(0));  // no extension is expected unless a test says so
    state.catalog.plugins.push_back(demo_plugin());
    state.catalog.registry.rebuild(state.catalog.plugins.front().tools, tools::browser_tool_catalog(), {});
    set_permission(tools::permission::auto_);
  }
  ~backend_fixture() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  backend_fixture(const backend_fixture&) = delete;
  backend_fixture& operator=(const backend_fixture&) = delete;

  void set_permission(tools::permission p) {
    state.config.cfg.permissions["demo"].permission = p;
    state.config.cfg.permissions["browser"].permission = p;
  }

  // Starts a call through the pipeline; `out` holds its result once it ends.
  void start(std::string name, std::string_view args, std::optional<tools::call_result>& out, tools::call_options options = {}) {
    opentabs::testing::spawn_into(io, pipeline.call_tool(std::move(name), json::parse_object(args).value(), std::move(options)), out);
  }
  // Runs a call to its end (for calls that need no answer from an extension).
  tools::call_result call(std::string name, std::string_view args, tools::call_options options = {}) {
    std::optional<tools::call_result> out;
    start(std::move(name), args, out, std::move(options));
    run_until([&] { return out.has_value(); });
    return std::move(*out);
  }
  template <class Done>
  void run_until(Done done) { opentabs::testing::run_until(io, done); }
  // Runs every handler that is ready, and no timer: what a call does before it has to wait.
  void settle() {
    io.restart();
    io.poll();
  }
  // Runs until `ext` received its `n`th request of `method`; returns that request.
  json::object await_request(const fake_extension& ext, std::string_view method, std::size_t n = 1) {
    run_until([&] { return ext.calls(method).size() >= n; });
    return ext.calls(method).at(n - 1);
  }

  std::vector<audit::audit_entry> audits() const { return state.audit.query(audit::audit_query{}); }

  const tools::tool_def& tool(std::string_view name) const { return *state.catalog.registry.find(name); }

  static plugins::plugin demo_plugin() {
    plugins::plugin p;
    p.loaded.name = "demo";
    p.loaded.version = "1.0.0";
    p.settings.instance_map = json::object{{"work", "*://work.example/*"}};
    auto t = tool_of_kind("demo", "echo", tools::tool_kind::plugin);
    t.description = "says it back";
    t.input_schema = json::parse_object(R"({"type":"object","properties":{"text":{"type":"string"}},
                                           "required":["text"],"additionalProperties":false})").value();
    t.validator = std::make_shared<schema::lazy_validator>(t.input_schema);
    p.tools.push_back(std::move(t));
    return p;
  }

  std::filesystem::path dir = [] {
    auto d = std::filesystem::temp_directory_path() / ("opentabs-backend-test-" + uuid_v4());
    std::filesystem::create_directories(d);
    return d;
  }();
  asio::io_context io;
  server_state state{config::config_paths{dir}, dir};
  testing::connection_log connections;
  extension_hub hub{io.get_executor(), dispatch_timing{request_timeout, 10 * request_timeout}, connections};
  confirmations confirm{io.get_executor(), state.audit};
  recording_grants grants;
  client_tabs holders;
  browser_tools server_side{hub, dir / "adapters", [this] { return output_locations{dir, dir / "output", {}}; }};
  plugin_backend plugins{state.catalog, hub};
  browser_backend browser{state.catalog, hub, server_side, holders};
  unused_backend platform, webmcp;
  tool_pipeline pipeline{state.config, state.catalog, state.audit, hub, confirm, grants, tool_backends{plugins, browser, platform, webmcp}};
};

// True once `backend` is ready for a call of `tool` (its await_ready ended).
inline net::awaitable<bool> ready_of(tool_backend& backend, const tools::tool_def& tool) {
  co_await backend.await_ready(tool);
  co_return true;
}

// The text of a result's first content item.
inline std::string text_of(const tools::call_result& r) {
  REQUIRE_FALSE(r.content.empty());
  return std::string(*json::get_string(r.content.front().as_object(), "text"));
}

// The methods of the frames `ext` received, in order (requests and notifications).
inline std::vector<std::string> methods_seen(const fake_extension& ext) {
  std::vector<std::string> out;
  for (const auto& f : ext.frames)
    if (auto parsed = json::parse_object(f))
      if (const auto* m = json::get_string(*parsed, "method")) out.emplace_back(*m);
  return out;
}

}  // namespace opentabs::app::testing
