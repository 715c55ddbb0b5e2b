// Tests for the JavaScript → RE2 pattern translation: the RE2 text it produces.
#include "schema/js_pattern_syntax.hpp"

#include <doctest/doctest.h>

using opentabs::errc;
using opentabs::schema::js_pattern_to_re2;

namespace {
std::string re2_of(std::string_view js) {
  auto r = js_pattern_to_re2(js);
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.err().message));
  return *r;
}
}  // namespace

TEST_CASE("JavaScript syntax becomes explicit RE2 syntax") {
  CHECK(re2_of("^ab1$") == "^ab1$");
  CHECK(re2_of("a.b") == R"(a[^\x{a}\x{d}\x{2028}\x{2029}]b)");
  CHECK(re2_of(R"(\d+)") == R"([\x{30}-\x{39}]+)");
  CHECK(re2_of(R"(\s)") == R"([\x{9}-\x{d}\x{20}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}-\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}])");
  CHECK(re2_of(R"(\u00e9\u{1F600}\x41\/)") == "\xC3\xA9\xF0\x9F\x98\x80" "A" R"(\x{2f})");
  CHECK(re2_of("[^]") == R"([\x{0}-\x{10ffff}])");
  CHECK(re2_of("[]") == R"([^\x{0}-\x{10ffff}])");
  CHECK(re2_of("(a)(?:b)(?<n>c)") == "(?:a)(?:b)(?:c)");
  CHECK(re2_of("a{2,}?b{3}c{1,4}") == "a{2,}?b{3}c{1,4}");
  CHECK(re2_of(R"([a-c\-])") == R"([\x{61}-\x{63}\x{2d}])");
  CHECK(re2_of(R"(\p{Letter}\P{sc=Greek})") == R"(\p{L}\P{Greek})");
  CHECK(re2_of(R"(\cA\0)") == R"(\x{1}\x{0})");
}

TEST_CASE("refusals carry the construct, not the whole pattern") {
  auto r = js_pattern_to_re2("x(?=y)");
  REQUIRE_FALSE(r.ok());
  CHECK(r.err().is(errc::unsupported));
  CHECK(r.err().message == "lookahead assertions ((?=...), (?!...)) are not supported (patterns run on a linear-time engine, RE2, which has none)");
  std::string deep(201, '(');
  deep += std::string(201, ')');
  CHECK(js_pattern_to_re2(deep).err().message == "groups nested deeper than 200 levels are not supported");
}
