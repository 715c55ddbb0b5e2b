// Translation of a JavaScript regular expression (ECMAScript, `u` flag, as Ajv compiles a
// JSON Schema `pattern`) into RE2 syntax with the same meaning.  Where the two dialects
// read the same text differently, the translation spells the JavaScript meaning out:
//   `.`        → any code point but the line terminators \n \r U+2028 U+2029
//   \s \S      → JavaScript's white-space set (RE2's \s lacks \v, NBSP, U+2028, ...)
//   \d \w \D \W, `[^]`, `[]`, \uXXXX (surrogate pairs joined), \u{...}, \xHH, \cX, \0,
//   \t \n \v \f \r, `\/`, `(?<name>...)` → explicit code points, ranges and plain groups;
//   literal punctuation is emitted as \x{..} so RE2's own class syntax ([:alpha:]) never
//   applies; ^ and $ keep their single-line meaning (RE2's default, as without JS's `m`).
//   \p{..}: one- and two-letter General_Category values (and their long names, gc=/
//   General_Category=) and Script=/sc= names.
// What RE2 cannot express (lookahead, lookbehind, back-references, named back-references,
// other Unicode properties, inline modifiers) and what JavaScript itself rejects under the
// `u` flag (lone `{` `}` `]`, unknown escapes, nothing to repeat, counts out of order) is an
// error naming the construct.  Repetition counts above 1000 are refused here (RE2's cap).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "util/result.hpp"

namespace opentabs::schema {

// The largest {n,m} count accepted (RE2's own limit).
inline constexpr std::size_t max_js_repeat_count = 1000;

// The RE2 pattern text for JavaScript `source`, or an error (errc::unsupported)
// whose message names the construct, e.g. "lookahead assertions ((?=...), (?!...)) are not
// supported".  The message does not repeat the pattern; js_regex adds it.
result<std::string> js_pattern_to_re2(std::string_view source);

}  // namespace opentabs::schema
