// JSON Schema `pattern` regular expressions with JavaScript (ECMAScript, `u` flag) meaning,
// as Ajv evaluates them, run on RE2: matching takes time linear in the input whatever the
// pattern ((.*)+Z on 40 kB answers at once), and the compiled program is bounded, so a
// schema from an untrusted page cannot stall the server at compile or at call time.  The
// JavaScript text is translated first (schema/js_pattern_syntax.hpp); what RE2 cannot
// express (lookaround, back-references) is refused with a message naming the construct.
// This file pair is the only place that includes RE2.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "util/result.hpp"

namespace re2 {
class RE2;
}

namespace opentabs::schema {

// Bounds on one pattern.  The program size counts RE2 instructions: Zod's date-time pattern
// needs about 300; one UTF-8 "any code point" about 10; a{1000}, 1000.
struct pattern_limits {
  std::size_t max_length = 4096;          // characters of JavaScript source
  std::size_t max_program_size = 10'000;  // RE2 instructions after compilation
};

class js_regex {
 public:
  // Errors name the pattern and what is not supported: schema_failure::pattern_too_large
  // when the program would exceed lim.max_program_size, else errc::unsupported.
  static result<js_regex> compile(std::string_view source, const pattern_limits& lim = {});

  // True when the pattern matches anywhere in the UTF-8 `text` (JSON Schema semantics:
  // unanchored search).
  bool search(std::string_view text) const;

  const std::string& source() const noexcept { return source_; }
  // RE2 instructions of the compiled program (what max_program_size bounds).
  std::size_t program_size() const;

 private:
  std::string source_;
  std::shared_ptr<const re2::RE2> re_;
};

}  // namespace opentabs::schema
