// What compiling a schema and validating an instance may cost: the bounds validator::compile
// and translate() enforce, in one struct so that callers (plugin loader, WebMCP directory,
// fuzzers) set them without depending on either.
#pragma once

#include <cstddef>

namespace opentabs::schema {

// Bounds on what a schema and an instance may cost.
struct limits {
  std::size_t max_schema_bytes = 1024 * 1024;  // serialized size of one schema
  std::size_t max_schema_depth = 64;           // nesting of subschemas
  // Subschemas, and JSON objects of the compiled schema (enum values included): RapidJSON
  // 1.1's compile time grows with the square of the object count (3000 ≈ 60 ms).
  std::size_t max_schema_nodes = 3000;
  std::size_t max_pattern_length = 4096;
  // `pattern`s and patternProperties keys in the whole schema (propertyNames sub-schemas
  // included), and the RE2 program size of each: together they bound the compile time and
  // memory a schema's regexes cost (see schema/js_regex.hpp).
  std::size_t max_patterns = 256;
  std::size_t max_pattern_program_size = 10'000;
  // RE2 instructions of all the schema's patterns together (RE2 compiles about one per
  // microsecond, and refuses a program over its share as soon as it gets there).
  std::size_t max_total_program_size = 200'000;
  std::size_t max_instance_depth = 64;         // nesting of validated arguments
  std::size_t max_property_names_nesting = 3;  // propertyNames schemas inside propertyNames schemas
};

}  // namespace opentabs::schema
