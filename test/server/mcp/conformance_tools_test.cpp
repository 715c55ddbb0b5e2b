// The conformance-mode decorator: fixture tools in front of the pipeline, with their
// logs and progress arriving on the calling request's SSE stream through the real
// endpoint (the inner pipeline is the scripted fake of mcp_harness.hpp).
#include "mcp/conformance_tools.hpp"

#include <algorithm>

#include "mcp_harness.hpp"

using namespace mcp_test;

TEST_CASE("fixtures are listed first, with descriptions and the verbatim 2020-12 schema") {
  asio::io_context io;
  tools::server_events events;
  scripted_tools inner(io.get_executor(), events);
  mcp::conformance_tools deco(io.get_executor(), inner, events);
  auto list = deco.list_tools();
  REQUIRE(list.size() == mcp::conformance_tools::fixtures().size() + 5);
  CHECK(list[0].name == "test_simple_text");
  CHECK(list.back().name == "plugin_inspect");
  for (const auto& t : list) CHECK((!t.description.empty() || t.name == "plugin_inspect"));
  const auto& fixtures = mcp::conformance_tools::fixtures();
  auto named = [&fixtures](std::string_view name) {
    auto it = std::find_if(fixtures.begin(), fixtures.end(), [name](const tools::listed_tool& t) { return t.name == name; });
    REQUIRE(it != fixtures.end());
    return *it;
  };
  const auto schema = named("json_schema_2020_12_tool");
  CHECK(schema.input_schema.at("$schema").as_string() == "https://json-schema.org/draft/2020-12/schema");
  CHECK(schema.input_schema.at("$defs").at("address").at("properties").as_object().contains("city"));
  CHECK(schema.input_schema.at("additionalProperties").as_bool() == false);
  // What the endpoint checks before a 2026-07-28 call: the tasks fixtures' task support and
  // the one tool that needs a client capability.
  CHECK(deco.traits_of("greet").tasks == tools::task_support::forbidden);
  CHECK(deco.traits_of("test_simple_text").tasks == tools::task_support::forbidden);
  CHECK(deco.traits_of("slow_compute").tasks == tools::task_support::optional);
  for (auto name : {"failing_job", "protocol_error_job", "confirm_delete", "multi_input", "test_tool_with_task"}) {
    CHECK(named(name).name == name);
    CHECK(deco.traits_of(name).tasks == tools::task_support::required);
  }
  CHECK(deco.traits_of("test_missing_capability").requires_client_capability == "sampling");
  CHECK(deco.traits_of("slow_compute").requires_client_capability.empty());
  // Real tools keep the defaults.
  CHECK(deco.traits_of("plugin_inspect").tasks == tools::task_support::optional);
}

TEST_CASE("fixture calls through the endpoint: content shapes, logs and progress on the call's stream") {
  harness base({}, {}, [](harness& h) -> std::unique_ptr<tools::tool_service> {
    return std::make_unique<mcp::conformance_tools>(h.io.get_executor(), h.service, h.events);
  });
  base.run([&]() -> awaitable<void> {
    auto sid = co_await base.open_session();
    auto sh = session_headers(sid);
    auto call = [&](int id, std::string name, std::string meta = "") -> awaitable<reply> {
      co_return co_await base.request(post("/mcp", rpc(id, "tools/call", R"({"name":")" + name + "\"" + meta + "}"), sh));
    };
    auto text = co_await call(1, "test_simple_text");
    CHECK(text.events()[0].at("result").at("content").as_array()[0].at("text").as_string() == "This is a simple text response for testing.");
    auto image = co_await call(2, "test_image_content");
    CHECK(image.events()[0].at("result").at("content").as_array()[0].at("mimeType").as_string() == "image/png");
    auto audio = co_await call(3, "test_audio_content");
    CHECK(audio.events()[0].at("result").at("content").as_array()[0].at("mimeType").as_string() == "audio/wav");
    auto resource = co_await call(4, "test_embedded_resource");
    CHECK(resource.events()[0].at("result").at("content").as_array()[0].at("resource").at("uri").as_string() == "test://embedded-resource");
    auto mixed = co_await call(5, "test_multiple_content_types");
    CHECK(mixed.events()[0].at("result").at("content").as_array().size() == 3);
    auto error = co_await call(6, "test_error_handling");
    CHECK(error.events()[0].at("result").at("isError").as_bool());

    co_await base.request(post("/mcp", rpc(7, "logging/setLevel", R"({"level":"debug"})"), sh));
    auto logging = co_await call(8, "test_tool_with_logging");
    auto lev = logging.events();
    REQUIRE(lev.size() == 4);
    for (int i = 0; i < 3; ++i) CHECK(lev[i].at("method").as_string() == "notifications/message");
    CHECK(lev[0].at("params").at("data").as_string() == "Tool execution started");
    CHECK(lev[3].at("id").as_int64() == 8);

    auto progress = co_await call(9, "test_tool_with_progress", R"(,"_meta":{"progressToken":"progress-test-1"})");
    auto pev = progress.events();
    REQUIRE(pev.size() == 4);
    CHECK(pev[0].at("params").at("progress").as_int64() == 0);
    CHECK(pev[1].at("params").at("progress").as_int64() == 50);
    CHECK(pev[2].at("params").at("progress").as_int64() == 100);
    CHECK(pev[2].at("params").at("total").as_int64() == 100);
    CHECK(pev[2].at("params").at("progressToken").as_string() == "progress-test-1");

    auto passthrough = co_await call(10, "notes_echo");
    CHECK(passthrough.events()[0].at("result").at("content").as_array()[0].at("text").as_string() == "{}");
  });
}
