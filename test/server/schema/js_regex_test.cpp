// Tests for js_regex: JavaScript pattern meaning on std::wregex, and what it refuses.
#include "schema/js_regex.hpp"

#include <doctest/doctest.h>

using opentabs::schema::js_regex;

TEST_CASE("JavaScript constructs std::regex shares are honoured") {
  auto r = js_regex::compile(R"(^(?:[a-z]\d)+(?!x)$)");
  REQUIRE(r.ok());
  CHECK(r->search("a1b2"));
  CHECK_FALSE(r->search("a1b"));
  CHECK(js_regex::compile("ab")->search("xxabxx"));  // unanchored, as JSON Schema says
  CHECK(js_regex::compile(R"(^\u00e9$)")->search("é"));
  CHECK_FALSE(js_regex::compile(R"(^\w$)")->search("é"));  // \w is ASCII in JavaScript
  CHECK(js_regex::compile(R"(^[à-ÿ]$)")->search("é"));     // ranges over code points
}

TEST_CASE("syntax that would silently change meaning is refused") {
  for (const char* p : {R"(\p{L})", R"(\P{L})", R"((?<=a)b)", R"((?<name>a))", R"(\k<name>)", R"(\u{1F600})", R"((a)\1)"}) {
    CAPTURE(p);
    auto r = js_regex::compile(p);
    REQUIRE_FALSE(r.ok());
    CHECK(r.err().code == "unsupported_pattern");
  }
  CHECK_FALSE(js_regex::compile("a{1,100000}").ok());  // automaton too large
  CHECK_FALSE(js_regex::compile(std::string(5000, 'a')).ok());
  CHECK(js_regex::compile(R"([\p])").ok() == false);   // \p inside a class too
}

TEST_CASE("matching is linear in the input, not recursive") {
  auto r = js_regex::compile(R"(^(a|b)*c$)");
  REQUIRE(r.ok());
  std::string s(2'000'000, 'a');
  CHECK_FALSE(r->search(s));
  s += 'c';
  CHECK(r->search(s));
}
