// Translation of a Zod-4 / draft 2020-12 JSON Schema into the draft-04 dialect RapidJSON 1.1
// validates, done once per schema at compile time:
//   numeric exclusiveMinimum/Maximum → draft-04 boolean form; const → one-value enum;
//   prefixItems/items → items[]/additionalItems; boolean subschemas → {} / {"not":{}};
//   $ref with sibling keywords → allOf; "#" (root) refs → a named $defs entry;
//   dependentRequired/dependentSchemas → dependencies; nullable:true → "null" type;
//   contains, if/then/else → equivalent allOf/anyOf/not forms;
//   pattern, format and propertyNames → "string checks" (JavaScript-compatible regexes,
//   hand-written format checks, a sub-validator for key names) that RapidJSON reaches
//   through pattern markers "(?opentabs:N)" its regex hook resolves (see validator.cpp).
// Annotations (title, description, default, examples, ...) are dropped.  Validation
// keywords that cannot be expressed (unevaluated*, $dynamicRef, min/maxContains, remote
// refs) make the translation fail with a message naming the keyword and its location.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/json.hpp"
#include "schema/js_regex.hpp"
#include "schema/limits.hpp"
#include "util/result.hpp"

namespace opentabs::schema {

// propertyNames: the schema every key must satisfy is compiled on its own, a translation
// inside the translation.  Compiling is the validator's job, so validator::compile hands
// translate() a key_schema_compiler instead of translate() calling back into the validator.
struct compiled_key_schema {
  // Why `key` is rejected (the validator's message), nullopt when it is accepted.
  std::function<std::optional<std::string>(std::string_view key)> reject_reason;
  std::size_t pattern_count = 0;         // counted against the enclosing schema's budget
  std::size_t pattern_program_size = 0;
};
using key_schema_compiler =
    std::function<result<compiled_key_schema>(const json::object& schema, const limits& lim)>;

// A check on one string (a value, or an object key for propertyNames) that the translated
// schema refers to by index.
struct string_check {
  enum class kind {
    value,           // a string value: `pattern` and/or `format` must hold
    key_pattern,     // patternProperties: keys outside `named` that `pattern` matches
    key_additional,  // additionalProperties next to patternProperties: keys outside
                     // `named` that none of `other_patterns` matches
    key_name,        // propertyNames: keys outside `named` that `key_rejects` rejects
  };
  kind what = kind::value;
  std::optional<js_regex> pattern;
  std::string format;                             // empty, or a name is_checked_format() knows
  std::function<std::optional<std::string>(std::string_view key)> key_rejects;
  std::vector<std::string> named;                 // sorted names from "properties"
  std::vector<js_regex> other_patterns;

  // What RapidJSON's regex evaluation sees: for value checks, "the string passes"; for key
  // checks, "this patternProperties entry applies to the key".
  bool matches(std::string_view s) const;

  // Why `s` fails this check, Ajv style ("must match format \"email\"").
  std::string explain(std::string_view s) const;
};

struct translation {
  json::object document;              // draft-04 schema for RapidJSON
  std::vector<string_check> checks;   // referenced by markers in `document`
  std::size_t pattern_count = 0;      // regexes compiled, propertyNames sub-schemas included
  std::size_t pattern_program_size = 0;  // their RE2 instructions together
};

// "(?opentabs:N)" — not valid JavaScript regex syntax, so no real pattern collides.
std::string check_marker(std::size_t index);
std::optional<std::size_t> parse_check_marker(std::string_view pattern);

// Comment markers on synthetic nodes, so error messages can name the original keyword.
inline constexpr std::string_view synthetic_tag = "$comment";

result<translation> translate(const json::object& schema, const limits& lim,
                              const key_schema_compiler& compile_key_schema);

// What translate() refuses that is found without translating: an unsupported keyword
// (unevaluatedProperties, $dynamicRef, ...), a subschema that is not an object or boolean,
// nesting deeper than lim.max_schema_depth, more than lim.max_schema_nodes subschemas —
// with translate()'s message.  A walk without copies, cheap enough for every tool of a
// plugin when it loads (its schema is compiled on first use); nullopt does not promise
// that the schema compiles.
std::optional<error> precheck(const json::object& schema, const limits& lim);

// Calls f(pointer, node) for every subschema of a translated (draft-04) document, parents
// before their children.
void for_each_subschema(const json::value& v, const std::string& at,
                        const std::function<void(const std::string&, const json::value&)>& f);

// JSON pointer ("/a/0", RFC 6901 escapes) lookup; nullptr when absent.
const json::value* resolve_pointer(const json::value& root, std::string_view pointer);

// "#/a%20b" → "/a b" (URI fragment → JSON pointer); nullopt when not a local reference.
std::optional<std::string> ref_to_pointer(std::string_view ref);

// "/a b" → "#/a%20b", the form RapidJSON accepts in "$ref".
std::string pointer_to_ref(std::string_view pointer);

// One JSON pointer token escaped (~ → ~0, / → ~1).
std::string escape_pointer_token(std::string_view token);

}  // namespace opentabs::schema
