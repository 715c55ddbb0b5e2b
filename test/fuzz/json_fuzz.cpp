// libFuzzer target: json::parse, the entry point of every message body, config file and
// tools.json.  Beyond "no crash": whatever parses must serialise with dump() to text that
// parses back to an equal value (doubles: see same()) (the server re-emits parsed JSON constantly), and the depth
// limit must hold for deeply nested input.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "json/json.hpp"
#include "nonfinite.hpp"

namespace json = opentabs::json;

namespace {
// Equal values, doubles within a relative 1e-15: Boost.JSON 1.81 parses some doubles to a
// neighbouring value (its precise number mode came in 1.83), so re-parsing dump() output
// can move a double by one ULP.  Anything else must survive exactly.
bool same(const json::value& a, const json::value& b) {
  if (a.is_double() && b.is_double()) {
    const double x = a.get_double(), y = b.get_double();
    return x == y || std::fabs(x - y) <= 1e-15 * std::max(std::fabs(x), std::fabs(y));
  }
  if (a.kind() != b.kind()) return false;
  if (const auto* aa = a.if_array()) {
    const auto& bb = b.get_array();
    if (aa->size() != bb.size()) return false;
    for (std::size_t i = 0; i < aa->size(); ++i)
      if (!same((*aa)[i], bb[i])) return false;
    return true;
  }
  if (const auto* ao = a.if_object()) {
    const auto& bo = b.get_object();
    if (ao->size() != bo.size()) return false;
    for (const auto& kv : *ao) {
      const auto* other = bo.if_contains(kv.key());
      if (!other || !same(kv.value(), *other)) return false;
    }
    return true;
  }
  return a == b;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  json::parse_limits limits;
  limits.max_depth = 32;
  limits.max_bytes = 256 * 1024;
  auto parsed = json::parse(text, limits);
  if (!parsed) {
    if (parsed.err().message.empty()) __builtin_trap();  // errors must say what broke
    return 0;
  }
  if (opentabs::fuzz::has_non_finite(*parsed)) return 0;  // see nonfinite.hpp
  const std::string once = json::dump(*parsed);
  auto again = json::parse(once, json::parse_limits{.max_bytes = once.size() + 1, .max_depth = 64});
  if (!again) __builtin_trap();
  if (!same(*parsed, *again)) __builtin_trap();
  (void)json::dump_pretty(*parsed);
  (void)json::type_name(*parsed);
  return 0;
}
