// The schema failure callers branch on: a pattern whose compiled program is over the size
// budget, which the translator retries with the budget the schema has left.
#pragma once

#include <string_view>
#include <system_error>

#include "util/failure_reason.hpp"

namespace opentabs::schema {

enum class schema_failure {
  pattern_too_large,  // the pattern compiles to more instructions than allowed
};

constexpr std::string_view to_string(schema_failure) { return "pattern_too_large"; }
constexpr errc kind_of(schema_failure) { return errc::too_large; }
inline std::error_code make_error_code(schema_failure f) { return reason_code(f); }

}  // namespace opentabs::schema

template <>
struct std::is_error_code_enum<opentabs::schema::schema_failure> : std::true_type {};
