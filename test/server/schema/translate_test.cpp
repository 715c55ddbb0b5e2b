// Tests for schema::precheck: what it refuses (unsupported keywords, non-schemas, nesting
// and subschema counts) with translate()'s own message and location, that it refuses
// nothing translate() accepts, and that keyword-like property names are not keywords.
#include "schema/translate.hpp"

#include <doctest/doctest.h>

#include "schema/validator.hpp"

using namespace opentabs;

namespace {

json::object obj(std::string_view text) {
  auto r = json::parse_object(text);
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.err().message));
  return std::move(*r);
}

// precheck's refusal, or "" — and whenever it refuses, compiling refuses with the same text.
std::string refusal(std::string_view text, const schema::limits& lim = {}) {
  auto why = schema::precheck(obj(text), lim);
  if (!why) return "";
  auto compiled = schema::validator::compile(obj(text), lim);
  REQUIRE_FALSE(compiled.ok());
  CHECK(compiled.err().message == why->message);
  return why->message;
}

}  // namespace

TEST_CASE("unsupported keywords are found wherever a subschema can be") {
  CHECK(refusal(R"({"type":"object","unevaluatedProperties":false})") ==
        "schema /unevaluatedProperties: keyword \"unevaluatedProperties\" is not supported");
  CHECK(refusal(R"({"properties":{"a/b":{"items":{"maxContains":2}}}})") ==
        "schema /properties/a~1b/items/maxContains: keyword \"maxContains\" is not supported");
  CHECK(refusal(R"({"anyOf":[{},{"$defs":{"x":{"$dynamicRef":"#a"}}}]})") ==
        "schema /anyOf/1/$defs/x/$dynamicRef: keyword \"$dynamicRef\" is not supported");
  CHECK(refusal(R"({"prefixItems":[{"type":"string"}],"items":{"unevaluatedItems":false}})") ==
        "schema /items/unevaluatedItems: keyword \"unevaluatedItems\" is not supported");
  CHECK(refusal(R"({"if":{"type":"string"},"then":{"minContains":1}})") ==
        "schema /then/minContains: keyword \"minContains\" is not supported");
  CHECK(refusal(R"({"dependencies":{"a":["b"],"c":{"unevaluatedItems":true}}})") ==
        "schema /dependencies/c/unevaluatedItems: keyword \"unevaluatedItems\" is not supported");
  CHECK(refusal(R"({"propertyNames":{"not":{"$recursiveRef":"#"}}})") ==
        "schema /propertyNames: schema /not/$recursiveRef: keyword \"$recursiveRef\" is not supported");
}

TEST_CASE("names that are data, not keywords, are not refused") {
  // A property called like a keyword, an annotation holding one, an enum value.
  CHECK(refusal(R"({"type":"object","properties":{"unevaluatedProperties":{"type":"string"}}})").empty());
  CHECK(refusal(R"({"default":{"unevaluatedProperties":false},"enum":[{"maxContains":1}]})").empty());
  CHECK(refusal(R"({"then":{"minContains":1}})").empty());  // no "if": then is not applied
  CHECK(schema::validator::compile(obj(R"({"type":"object","properties":{"unevaluatedProperties":{"type":"string"}}})")).ok());
}

TEST_CASE("non-schemas, nesting and the subschema count") {
  CHECK(refusal(R"({"properties":{"a":3}})") == "schema /properties/a: a schema must be an object or a boolean, found number");
  CHECK(refusal(R"({"allOf":[]})") == "schema /allOf: must be a non-empty array of schemas");
  CHECK(refusal(R"({"properties":[]})") == "schema /properties: must be an object of schemas");
  schema::limits shallow;
  shallow.max_schema_depth = 2;
  CHECK(refusal(R"({"items":{"items":{"items":{}}}})", shallow) == "schema /items/items/items: schemas nest deeper than 2 levels");
  CHECK(refusal(R"({"items":{"items":{}}})", shallow).empty());
  schema::limits few;
  few.max_schema_nodes = 3;
  CHECK(refusal(R"({"properties":{"a":{},"b":{},"c":{}}})", few) == "schema has more than 3 subschemas");
  CHECK(refusal(R"({"properties":{"a":{},"b":{}}})", few).empty());
}

TEST_CASE("what only compiling finds passes the precheck") {
  // Regexes are compiled by RE2 when the schema is; a dangling $ref is found after translating.
  CHECK(schema::precheck(obj(R"j({"properties":{"q":{"type":"string","pattern":"a(?=b)"}}})j"), {}) == std::nullopt);
  CHECK(schema::precheck(obj(R"({"$ref":"#/$defs/missing"})"), {}) == std::nullopt);
  CHECK_FALSE(schema::validator::compile(obj(R"({"$ref":"#/$defs/missing"})")).ok());
}
