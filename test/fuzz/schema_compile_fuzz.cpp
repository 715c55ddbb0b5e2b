// libFuzzer target: compiling an untrusted tool input schema, as a web page's WebMCP tool
// registers one (schema::validator with the WebMCP limits of app/webmcp_directory.hpp),
// then validating a few instances against it.  The input is the schema's JSON text.  The
// point is time as much as memory: scripts/fuzz.sh runs it with a per-input time limit, so a
// schema whose compile or validation is slow (a regex program that explodes, a pattern that
// backtracks) is reported as a failure, like the 83-byte input that once took the
// schema_validator target past its limit.  Compile errors must say what could not be compiled.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "json/json.hpp"
#include "schema/validator.hpp"

namespace json = opentabs::json;
namespace schema = opentabs::schema;

namespace {

// The limits webmcp_limits::schema_limits() gives a page's schema (kept in step by hand:
// the app module needs Asio, which the fuzz build leaves out).
schema::limits page_limits() {
  schema::limits lim;
  lim.max_schema_bytes = 64 * 1024;
  lim.max_schema_depth = 32;
  lim.max_schema_nodes = 600;
  lim.max_pattern_length = 1024;
  lim.max_patterns = 64;
  lim.max_pattern_program_size = 10'000;
  lim.max_total_program_size = 50'000;
  return lim;
}

void check(const schema::validator& v, const json::value& instance) {
  if (auto violation = v.check(instance)) {
    if (violation->message.empty()) __builtin_trap();
    (void)schema::describe_invalid_arguments("fuzz_tool", *violation);
  }
  if (const auto* object = instance.if_object()) {
    auto st = v.validate(*object, "fuzz_tool");
    if (!st && st.err().message.empty()) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto schema_object = json::parse_object(text, json::parse_limits{64 * 1024, 64});
  if (!schema_object) return 0;
  static const schema::limits lim = page_limits();
  auto compiled = schema::validator::compile(*schema_object, lim);
  if (!compiled) {
    if (compiled.err().message.empty()) __builtin_trap();
    return 0;
  }
  const auto& v = **compiled;
  // A few instances: empty, the schema itself, and every declared property set to a long
  // string without and with the characters patterns often end on (the backtracking shape).
  check(v, json::object{});
  check(v, json::value(*schema_object));
  std::string long_text(8 * 1024, 'a');
  json::object long_values, tailed_values;
  if (const auto* props = json::get_object(*schema_object, "properties"))
    for (const auto& [name, sub] : *props) {
      (void)sub;
      long_values[name] = json::str(long_text);
      tailed_values[name] = json::str(long_text + "Z!\n");
    }
  check(v, json::value(std::move(long_values)));
  check(v, json::value(std::move(tailed_values)));
  check(v, json::str(std::string(text.substr(0, 1024))));
  return 0;
}
