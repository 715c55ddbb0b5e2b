// Integer settings read from the environment (the OPENTABS_* test knobs, PORT, COLUMNS):
// one parser, so that every setting takes the same text and treats a bad value the same
// way.  A value is decimal digits only (no sign, spaces or suffix) within the bounds the
// caller states; an unset or empty variable means "use the default".
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

#include "util/result.hpp"

namespace opentabs {

// `text` as an integer in [min, max]; error "invalid_number" saying what was wrong (the
// message quotes the text, bounded, and names the range).
result<std::int64_t> parse_bounded_integer(std::string_view text, std::int64_t min, std::int64_t max);

// The variable `name` as an integer in [min, max]: nullopt when it is unset or empty, an
// error (code "invalid_number", the message naming the variable) when it is set to
// anything else than such an integer.
result<std::optional<std::int64_t>> read_env_integer(const char* name, std::int64_t min, std::int64_t max);

// For knobs with a default: read_env_integer, where a bad value is logged as a warning
// ("ignoring NAME=...: ...") and the default applies (nullopt), as for an unset variable.
std::optional<std::int64_t> env_integer(const char* name, std::int64_t min, std::int64_t max);

// env_integer for a duration in milliseconds.
std::optional<std::chrono::milliseconds> env_milliseconds(const char* name, std::int64_t min_ms, std::int64_t max_ms);

// The largest duration a deadline knob takes (about 31 years): no knob needs more, and a
// steady_clock time point this far ahead cannot overflow.
inline constexpr std::int64_t max_env_milliseconds = 1'000'000'000'000;

}  // namespace opentabs
