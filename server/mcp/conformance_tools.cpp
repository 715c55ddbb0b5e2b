#include "mcp/conformance_tools.hpp"

#include <chrono>

#include "util/clock.hpp"

namespace opentabs::mcp {

namespace {

// A 1x1 RGB PNG and four silent 16-bit mono samples at 8 kHz (spec/mcp.md §7).
constexpr std::string_view kPng = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgaPgPAAIDAYAkYfWXAAAAAElFTkSuQmCC";
constexpr std::string_view kWav = "UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQgAAAAAAAAAAAAAAA==";
// The fixtures pace their notifications like the reference server does.
constexpr auto kStep = std::chrono::milliseconds(50);

json::object no_args() { return json::object{{"type", "object"}, {"properties", json::object{}}, {"additionalProperties", false}}; }

tools::listed_tool fixture(std::string name, std::string description, json::object schema = no_args()) {
  return tools::listed_tool{std::move(name), std::move(description), std::move(schema), std::string(conformance_tools::plugin_name)};
}

json::object image_block() { return json::object{{"type", "image"}, {"data", json::str(kPng)}, {"mimeType", "image/png"}}; }

tools::call_result blocks(json::array content, bool is_error = false) {
  tools::call_result r;
  r.content = std::move(content);
  r.is_error = is_error;
  if (is_error) r.failure = errc::tool_failed;
  return r;
}

}  // namespace

conformance_tools::conformance_tools(asio::any_io_executor ex, tools::tool_service& inner, tools::server_events& events)
    : ex_(std::move(ex)), inner_(inner), events_(events) {}

const std::vector<tools::listed_tool>& conformance_tools::fixtures() {
  static const std::vector<tools::listed_tool> list = [] {
    json::object schema_2020{
        {"$schema", "https://json-schema.org/draft/2020-12/schema"},
        {"type", "object"},
        {"$defs", json::object{{"address", json::object{{"type", "object"},
                                                        {"properties", json::object{{"street", json::object{{"type", "string"}}},
                                                                                    {"city", json::object{{"type", "string"}}}}}}}}},
        {"properties", json::object{{"name", json::object{{"type", "string"}}}, {"address", json::object{{"$ref", "#/$defs/address"}}}}},
        {"additionalProperties", false}};
    return std::vector<tools::listed_tool>{
        fixture("test_simple_text", "Conformance fixture: returns a simple text response"),
        fixture("test_image_content", "Conformance fixture: returns an image content block"),
        fixture("test_audio_content", "Conformance fixture: returns an audio content block"),
        fixture("test_embedded_resource", "Conformance fixture: returns an embedded resource"),
        fixture("test_multiple_content_types", "Conformance fixture: returns text, image and resource blocks"),
        fixture("test_tool_with_logging", "Conformance fixture: logs three info messages while running"),
        fixture("test_tool_with_progress", "Conformance fixture: reports progress 0, 50 and 100 of 100"),
        fixture("test_error_handling", "Conformance fixture: always returns an isError result"),
        // 2026-07-28 (server-stateless): logs like test_tool_with_logging, and a tool-set
        // change for subscriptions/listen.
        fixture("test_logging_tool", "Conformance fixture: logs three info messages while running"),
        fixture("test_trigger_tool_change", "Conformance fixture: announces a tool list change"),
        // 2026-07-28 (http-custom-header-server-validation): a parameter mirrored into the
        // Mcp-Param-Region header.
        fixture("test_custom_header", "Conformance fixture: echoes its region parameter, which clients mirror into Mcp-Param-Region",
                json::object{{"type", "object"},
                             {"properties", json::object{{"region", json::object{{"type", "string"}, {"x-mcp-header", "Region"}}},
                                                         {"query", json::object{{"type", "string"}}}}},
                             {"required", json::array{"region"}}}),
        fixture("json_schema_2020_12_tool", "Conformance fixture: JSON Schema 2020-12 input schema passed through verbatim", std::move(schema_2020)),
    };
  }();
  return list;
}

std::vector<tools::listed_tool> conformance_tools::list_tools() const {
  auto list = fixtures();
  auto rest = inner_.list_tools();
  list.insert(list.end(), std::make_move_iterator(rest.begin()), std::make_move_iterator(rest.end()));
  return list;
}

asio::awaitable<bool> conformance_tools::pause(const tools::call_options& options) {
  asio::steady_timer t(ex_, kStep);
  co_await t.async_wait(asio::experimental::as_tuple(asio::use_awaitable));
  co_return !(options.cancel && options.cancel->cancelled());
}

asio::awaitable<tools::call_result> conformance_tools::call_tool(std::string name, json::object arguments, tools::call_options options) {
  if (name == "test_simple_text")
    co_return tools::call_result::text("This is a simple text response for testing.");
  if (name == "test_image_content") co_return blocks(json::array{image_block()});
  if (name == "test_audio_content")
    co_return blocks(json::array{json::object{{"type", "audio"}, {"data", json::str(kWav)}, {"mimeType", "audio/wav"}}});
  if (name == "test_embedded_resource")
    co_return blocks(json::array{json::object{
        {"type", "resource"},
        {"resource", json::object{{"uri", "test://embedded-resource"}, {"mimeType", "text/plain"}, {"text", "This is an embedded resource content."}}}}});
  if (name == "test_multiple_content_types")
    co_return blocks(json::array{
        json::object{{"type", "text"}, {"text", "Multiple content types test:"}},
        image_block(),
        json::object{{"type", "resource"},
                     {"resource", json::object{{"uri", "test://mixed-content-resource"}, {"mimeType", "application/json"}, {"text", R"({"test":"data","value":123})"}}}}});
  if (name == "test_error_handling")
    co_return tools::call_result::text("This tool intentionally returns an error for testing", true, errc::tool_failed);
  if (name == "json_schema_2020_12_tool") co_return tools::call_result::text(json::dump(arguments));
  if (name == "test_custom_header") {
    const auto* region = json::get_string(arguments, "region");
    co_return tools::call_result::text("region: " + (region ? std::string(*region) : std::string("(none)")));
  }
  if (name == "test_trigger_tool_change") {
    events_.tools_changed();
    co_return tools::call_result::text("Tool list change announced");
  }
  if (name == "test_tool_with_logging" || name == "test_logging_tool") {
    // No co_return inside the loops: GCC 12 mis-compiles some (see endpoint.cpp).
    const char* steps[] = {"Tool execution started", "Tool processing data", "Tool execution completed"};
    bool cancelled = false;
    for (int i = 0; i < 3 && !cancelled; ++i) {
      if (i > 0) {
        bool go_on = co_await pause(options);
        cancelled = !go_on;
      }
      if (!cancelled) events_.plugin_log(tools::plugin_log_entry{std::string(plugin_name), "info", steps[i], nullptr, now_epoch_ms()});
    }
    co_return cancelled ? tools::call_result::text("cancelled", true, errc::tool_failed) : tools::call_result::text("Logging test completed");
  }
  if (name == "test_tool_with_progress") {
    bool cancelled = false;
    for (double p : {0.0, 50.0, 100.0}) {
      if (options.on_progress) options.on_progress(tools::progress_update{p, 100.0, ""});
      if (p < 100.0) {
        bool go_on = co_await pause(options);
        cancelled = !go_on;
      }
      if (cancelled) break;
    }
    co_return cancelled ? tools::call_result::text("cancelled", true, errc::tool_failed) : tools::call_result::text("Progress test completed");
  }
  co_return co_await inner_.call_tool(std::move(name), std::move(arguments), std::move(options));
}

}  // namespace opentabs::mcp
