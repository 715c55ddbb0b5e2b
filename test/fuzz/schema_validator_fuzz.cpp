// libFuzzer target: tool-argument validation (schema::validator).  The input is a tool's
// input schema and a call's arguments separated by the first newline: the schema is
// compiled as the plugin loader does (Zod-style 2020-12 translated to draft-04, bounded by
// schema::limits), and the arguments are validated as a tool call would be.  A violation must
// come with a message; compile errors must say what could not be compiled.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "json/json.hpp"
#include "schema/validator.hpp"

namespace json = opentabs::json;
namespace schema = opentabs::schema;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::size_t newline = text.find('\n');
  const std::string_view schema_text = text.substr(0, newline);
  const std::string_view args_text = newline == std::string_view::npos ? std::string_view("{}") : text.substr(newline + 1);
  auto schema_object = json::parse_object(schema_text);
  if (!schema_object) return 0;
  schema::limits lim;
  lim.max_schema_nodes = 300;  // keeps one compile cheap enough for the fuzzer's pace
  auto compiled = schema::validator::compile(*schema_object, lim);
  if (!compiled) {
    if (compiled.err().message.empty()) __builtin_trap();
    return 0;
  }
  auto args = json::parse(args_text);
  if (!args) return 0;
  if (auto v = (*compiled)->check(*args)) {
    if (v->message.empty()) __builtin_trap();
    (void)schema::describe_invalid_arguments("fuzz_tool", *v);
  }
  if (const auto* object = args->if_object()) {
    auto st = (*compiled)->validate(*object, "fuzz_tool");
    if (!st && st.err().message.empty()) __builtin_trap();
  }
  return 0;
}
