// Tests for schema::lazy_validator: nothing is compiled until the first get(), the outcome
// (validator or refusal) is computed once and is the same on every call and thread, and
// the limits given are the ones compiling uses.
#include "schema/lazy_validator.hpp"

#include <doctest/doctest.h>

#include <thread>
#include <vector>

using namespace opentabs;
using schema::lazy_validator;

namespace {

json::object obj(std::string_view text) {
  auto r = json::parse_object(text);
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.err().message));
  return std::move(*r);
}

}  // namespace

TEST_CASE("a schema is compiled on the first get() and kept") {
  auto lazy = schema::compile_on_first_use(obj(R"({"type":"object","properties":{"q":{"type":"string"}},"required":["q"]})"));
  CHECK_FALSE(lazy->compiled());
  const auto& first = lazy->get();
  REQUIRE(first.ok());
  CHECK(lazy->compiled());
  CHECK(first.value()->validate(obj(R"({"q":"x"})"), "t").ok());
  auto bad = first.value()->validate(obj(R"({"q":1})"), "t");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.err().message == "Invalid arguments for tool \"t\":\n  - /q: must be string");
  // The same validator every time.
  CHECK(lazy->get().value() == first.value());
}

TEST_CASE("a schema that does not compile gives the compile error on every get()") {
  auto lazy = schema::compile_on_first_use(obj(R"j({"type":"object","properties":{"q":{"type":"string","pattern":"a(?=b)"}}})j"));
  const auto& r = lazy->get();
  REQUIRE_FALSE(r.ok());
  auto direct = schema::validator::compile(obj(R"j({"type":"object","properties":{"q":{"type":"string","pattern":"a(?=b)"}}})j"));
  REQUIRE_FALSE(direct.ok());
  CHECK(r.err().message == direct.err().message);
  CHECK(r.err().message.find("lookahead") != std::string::npos);
  CHECK(&lazy->get() == &r);
}

TEST_CASE("the limits given bound the compile (issue 13's caps still apply)") {
  schema::limits tight;
  tight.max_patterns = 1;
  auto lazy = schema::compile_on_first_use(
      obj(R"({"type":"object","properties":{"a":{"type":"string","pattern":"^a"},"b":{"type":"string","pattern":"^b"}}})"), tight);
  REQUIRE_FALSE(lazy->get().ok());
  CHECK(lazy->get().err().message.find("more than 1 patterns") != std::string::npos);
  // The same schema with the default limits compiles.
  auto roomy = schema::compile_on_first_use(
      obj(R"({"type":"object","properties":{"a":{"type":"string","pattern":"^a"},"b":{"type":"string","pattern":"^b"}}})"));
  CHECK(roomy->get().ok());
}

TEST_CASE("an already compiled validator or a known refusal is handed back as it is") {
  auto compiled = schema::validator::compile(obj(R"({"type":"object"})")).value();
  lazy_validator wrapped(compiled);
  CHECK(wrapped.compiled());
  CHECK(wrapped.get().value() == compiled);
  lazy_validator refused(make_error(errc::invalid_params, "schema /x: keyword \"unevaluatedItems\" is not supported"));
  CHECK(refused.compiled());
  REQUIRE_FALSE(refused.get().ok());
  CHECK(refused.get().err().message == "schema /x: keyword \"unevaluatedItems\" is not supported");
}

TEST_CASE("threads asking at once share one compile") {
  auto lazy = schema::compile_on_first_use(obj(R"({"type":"object","properties":{"n":{"type":"integer","minimum":1}}})"));
  std::vector<const schema::validator*> seen(4, nullptr);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < seen.size(); ++i)
    threads.emplace_back([&, i] { seen[i] = lazy->get().value().get(); });
  for (auto& t : threads) t.join();
  for (auto* v : seen) CHECK(v == seen[0]);
  CHECK(seen[0] != nullptr);
}
