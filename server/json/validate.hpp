// Checking that bytes are one JSON text without keeping the parsed value: for the stdio
// bridge, which relays the server's messages byte for byte but must not relay garbage.
// Defined in json.cpp, next to parse(), whose limits and error messages it shares (this
// header names only what it needs, so json.cpp can include it without a cycle).
#pragma once

#include <string_view>

#include "util/result.hpp"

namespace opentabs::json {

struct parse_limits;  // json/json.hpp

// Whether `text` is exactly one JSON text, with parse()'s limits and errors.  The value's
// nodes go to a scratch buffer on the stack (a message of a few KiB touches no heap).
status validate(std::string_view text, const parse_limits& limits);

}  // namespace opentabs::json
