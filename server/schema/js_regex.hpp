// JSON Schema `pattern` regular expressions with JavaScript (ECMAScript, `u` flag) meaning,
// as Ajv evaluates them.  Backed by std::wregex over UTF-32 in libstdc++'s polynomial
// (breadth-first) mode: its default depth-first matcher recurses once per input character
// and overflows the stack on strings of ~50 KB, which a caller controls.  Syntax the
// standard engine would silently read differently from JavaScript (lookbehind, named
// groups, \p{..} classes, \u{..}) and back-references are rejected at compile time.
#pragma once

#include <memory>
#include <regex>
#include <string>
#include <string_view>

#include "util/result.hpp"

namespace opentabs::schema {

class js_regex {
 public:
  // Errors (code "unsupported_pattern") name the pattern and what is not supported.
  static result<js_regex> compile(std::string_view source, std::size_t max_length = 4096);

  // True when the pattern matches anywhere in the UTF-8 `text` (JSON Schema semantics:
  // unanchored search).
  bool search(std::string_view text) const;

  const std::string& source() const noexcept { return source_; }

 private:
  std::string source_;
  std::shared_ptr<const std::wregex> re_;
};

// UTF-8 → UTF-32 (invalid sequences become U+FFFD).  Shared with the format checks.
std::u32string utf8_to_utf32(std::string_view s);

}  // namespace opentabs::schema
