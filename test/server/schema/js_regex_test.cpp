// Tests for js_regex: JavaScript pattern meaning on RE2, what it refuses, and that neither
// compiling nor matching can be made slow or large by the pattern's author.
#include "schema/js_regex.hpp"
#include "schema/schema_failure.hpp"

#include <doctest/doctest.h>

#include <string>

using opentabs::errc;
using opentabs::schema::js_regex;
using opentabs::schema::pattern_limits;
using opentabs::schema::schema_failure;

namespace {
bool matches(const char* pattern, std::string_view text) {
  auto r = js_regex::compile(pattern);
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.err().message));
  return r->search(text);
}
std::string refusal(std::string_view pattern, const pattern_limits& lim = {}) {
  auto r = js_regex::compile(pattern, lim);
  if (r.ok()) return "compiled";
  CHECK((r.err().is(errc::unsupported) || r.err().is(schema_failure::pattern_too_large)));
  return r.err().message;
}
bool contains(const std::string& s, std::string_view part) { return s.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("JavaScript constructs keep their JavaScript meaning") {
  CHECK(matches(R"(^(?:[a-z]\d)+$)", "a1b2"));
  CHECK_FALSE(matches(R"(^(?:[a-z]\d)+$)", "a1b"));
  CHECK(matches("ab", "xxabxx"));  // unanchored, as JSON Schema says
  CHECK(matches(R"(^\u00e9$)", "é"));
  CHECK_FALSE(matches(R"(^\w$)", "é"));  // \w is ASCII in JavaScript
  CHECK(matches(R"(^[à-ÿ]$)", "é"));     // ranges over code points
  CHECK(matches(R"(^.{3}$)", "äöü"));    // characters are code points
  CHECK(matches(R"(^\uD83D\uDE00$)", "\xF0\x9F\x98\x80"));  // a surrogate pair is one code point
  CHECK(matches(R"(^\u{1F600}$)", "\xF0\x9F\x98\x80"));
  CHECK(matches(R"(^\p{Lu}\p{Ll}+$)", "Émile"));
  CHECK(matches(R"(^\p{Script=Greek}+$)", "αβγ"));
  CHECK_FALSE(matches(R"(^\P{L}$)", "a"));
}

TEST_CASE("where RE2 reads the text differently, the JavaScript meaning wins") {
  SUBCASE("dot stops at every JavaScript line terminator") {
    CHECK_FALSE(matches("^a.b$", "a\nb"));
    CHECK_FALSE(matches("^a.b$", "a\rb"));
    CHECK_FALSE(matches("^a.b$", "a\u2028b"));
    CHECK(matches("^a.b$", "a\tb"));
  }
  SUBCASE("^ and $ are the ends of the whole string") {
    CHECK_FALSE(matches("^a$", "a\n"));
    CHECK_FALSE(matches("^b", "a\nb"));
  }
  SUBCASE("\\s is JavaScript's white space, \\S its complement, in and out of classes") {
    for (const char* ws : {"\v", "\xC2\xA0", "\u2028", "\u3000", "\uFEFF"}) {
      CAPTURE(ws);
      CHECK(matches(R"(^\s$)", ws));
      CHECK(matches(R"(^[\s]$)", ws));
      CHECK_FALSE(matches(R"(^\S$)", ws));
      CHECK_FALSE(matches(R"(^[x\S]$)", ws));
    }
    CHECK(matches(R"(^[\S]$)", "x"));
  }
  SUBCASE("\\d \\D \\W in classes") {
    CHECK(matches(R"(^[\d-]+$)", "12-3"));
    CHECK(matches(R"(^[\D]$)", "é"));
    CHECK(matches(R"(^[^\W]$)", "_"));
  }
  SUBCASE("[^] is any character, [] none") {
    CHECK(matches("^[^]$", "\n"));
    CHECK_FALSE(matches("[]", "abc"));
    CHECK(matches("^a[]?b$", "ab"));
  }
  SUBCASE("escapes") {
    CHECK(matches(R"(^a\/b$)", "a/b"));
    CHECK(matches(R"(^\cJ$)", "\n"));
    CHECK(matches(R"(^\0$)", std::string_view("\0", 1)));
    CHECK(matches(R"(^\x41\t$)", "A\t"));
    CHECK(matches(R"(^[\b]$)", "\b"));
    CHECK(matches(R"(^\.\*\+\?\(\)\[\]\{\}\|\^\$\\$)", R"(.*+?()[]{}|^$\)"));
  }
  SUBCASE("punctuation is literal, never RE2 syntax") {
    CHECK(matches("^[[:alpha:]$", ":"));  // a class of '[', ':', 'a', ... in JavaScript
    CHECK_FALSE(matches("^[[:alpha:]$", "b"));
    CHECK(matches("^a b#c$", "a b#c"));
  }
  SUBCASE("named groups and lazy quantifiers") {
    CHECK(matches(R"(^(?<year>\d{4})-(?<m>\d\d)$)", "2024-01"));
    CHECK(matches(R"(^a+?b*?c??$)", "aac"));
    CHECK(matches(R"(^a{2,}$)", "aaa"));
    CHECK_FALSE(matches(R"(^a{2,3}$)", "aaaa"));
  }
}

TEST_CASE("what RE2 cannot express is refused, naming the construct") {
  CHECK(contains(refusal("^(?!x)a"), "lookahead assertions"));
  CHECK(contains(refusal("a(?=b)"), "lookahead assertions"));
  CHECK(contains(refusal("(?<=a)b"), "lookbehind assertions"));
  CHECK(contains(refusal("(?<!a)b"), "lookbehind assertions"));
  CHECK(contains(refusal(R"((a)\1)"), "back-references (\\1)"));
  CHECK(contains(refusal(R"((?<n>a)\k<n>)"), "named back-references"));
  CHECK(contains(refusal(R"(\p{Alphabetic})"), "Unicode property \\p{Alphabetic}"));
  CHECK(contains(refusal(R"([\P{Emoji}])"), "Unicode property \\P{Emoji}"));
  CHECK(contains(refusal("(?i:a)"), "inline modifiers"));
  CHECK(contains(refusal(R"(\uD800)"), "lone surrogate"));
  CHECK(contains(refusal("(?<=a)b"), "pattern \"(?<=a)b\" cannot be used"));
  CHECK(contains(refusal("(?=\n\x1b[31m)"), "pattern \"(?=??[31m)\" cannot be used"));  // no raw control characters
}

TEST_CASE("what JavaScript itself rejects under the u flag is refused") {
  CHECK(contains(refusal("a{"), "lone '{'"));
  CHECK(contains(refusal("a}"), "lone '}'"));
  CHECK(contains(refusal("a]"), "lone ']'"));
  CHECK(contains(refusal("*a"), "nothing to repeat"));
  CHECK(contains(refusal("a**"), "nothing to repeat"));
  CHECK(contains(refusal("^*"), "after an assertion"));
  CHECK(contains(refusal("a{3,2}"), "out of order"));
  CHECK(contains(refusal("[z-a]"), "out of order"));
  CHECK(contains(refusal(R"([\d-z])"), "class escape"));
  CHECK(contains(refusal(R"(\a)"), "escape \\a"));
  CHECK(contains(refusal(R"(\-)"), "escape \\-"));
  CHECK(contains(refusal("\\"), "trailing backslash"));
  CHECK(contains(refusal("[a-"), "unterminated character class"));
  CHECK(contains(refusal("(a"), "unterminated group"));
  CHECK(contains(refusal("a)"), "unmatched ')'"));
  CHECK(contains(refusal(R"(\01)"), "octal"));
  CHECK(contains(refusal(R"(\u12)"), "four hex digits"));
}

TEST_CASE("patterns whose program would be large are refused quickly, with the reason") {
  CHECK(contains(refusal("(?:){40000}"), "repetition count of 40000 is not supported (at most 1000)"));
  CHECK(contains(refusal("a{49000}"), "repetition count of 49000"));
  CHECK(contains(refusal("a{1,100000}"), "repetition count of 100000"));
  CHECK(contains(refusal(std::string(5000, 'a')), "longer than 4096 characters"));
  // Nested repetitions within the per-count cap multiply: RE2 and the program bound stop them.
  auto nested = refusal("(?:(?:a{1000}){1000}){1000}");
  CHECK((contains(nested, "too complex") || contains(nested, "repetitions nest too deeply")));
  CHECK(contains(refusal(".{1000}"), "too complex: its compiled program exceeds 10000 instructions"));
  CHECK(js_regex::compile(".{1000}").err().is(schema_failure::pattern_too_large));
  CHECK(js_regex::compile("a{1000}")->program_size() <= 1010);
  pattern_limits small;
  small.max_program_size = 100;
  CHECK(contains(refusal("a{200}", small), "exceeds 100 instructions"));
  auto fits = js_regex::compile("a{50}", small);
  REQUIRE(fits.ok());
  CHECK(fits->program_size() <= 100);
}

TEST_CASE("Zod's own patterns fit the default program budget") {
  const char* date_time =
      R"(^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))T(?:(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z))$)";
  auto r = js_regex::compile(date_time);
  REQUIRE(r.ok());
  CHECK(r->search("2024-02-29T10:00:00Z"));
  CHECK_FALSE(r->search("2023-02-29T10:00:00Z"));
  MESSAGE("date-time program size " << r->program_size());
  CHECK(r->program_size() < 2000);
}

TEST_CASE("matching is linear in the input: no backtracking blow-up") {
  SUBCASE("(.*)+Z against 40 kB without a Z") {
    auto r = js_regex::compile("(.*)+Z");
    REQUIRE(r.ok());
    std::string s(40'000, 'a');
    CHECK_FALSE(r->search(s));
    s += 'Z';
    CHECK(r->search(s));
  }
  SUBCASE("(a|aa)+$ and (a+)+b against long runs") {
    std::string s(100'000, 'a');
    s += '!';
    CHECK_FALSE(js_regex::compile("^(a|aa)+$")->search(s));
    CHECK_FALSE(js_regex::compile("^(a+)+b")->search(s));
  }
  SUBCASE("a multi-megabyte string") {
    auto r = js_regex::compile(R"(^(a|b)*c$)");
    REQUIRE(r.ok());
    std::string s(2'000'000, 'a');
    CHECK_FALSE(r->search(s));
    s += 'c';
    CHECK(r->search(s));
  }
}
