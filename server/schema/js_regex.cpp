#include "schema/js_regex.hpp"

#include <re2/re2.h>

#include "schema/js_pattern_syntax.hpp"
#include "schema/schema_failure.hpp"
#include "util/strings.hpp"

namespace opentabs::schema {
namespace {

// RE2 budgets memory, not instructions: its compiler gives the forward program 2/3 of
// max_mem and stops at a quarter of that in 16-byte instructions; what is left of the budget
// is the lazily built DFA's cache (when it fills, RE2 falls back to its NFA, still linear).
// A budget of 96 bytes per allowed instruction lets any program within the limit compile and
// makes RE2 abandon a larger one early, instead of building it and then being refused.
std::int64_t memory_budget(std::size_t max_program_size) {
  return static_cast<std::int64_t>(max_program_size) * 96 + (64 << 10);
}

}  // namespace

result<js_regex> js_regex::compile(std::string_view source, const pattern_limits& lim) {
  // The pattern is the schema author's text (a newline could forge a log line).
  auto refusal = [&](const std::string& why) { return "pattern " + quote_for_error(source, 200) + " cannot be used: " + why; };
  auto fail = [&](const std::string& why) { return make_error(errc::unsupported, refusal(why)); };
  if (source.size() > lim.max_length) return fail("longer than " + std::to_string(lim.max_length) + " characters");
  auto translated = js_pattern_to_re2(source);
  if (!translated) return fail(translated.err().message);

  RE2::Options options;
  options.set_encoding(RE2::Options::EncodingUTF8);
  options.set_log_errors(false);
  options.set_never_capture(true);  // a search needs no submatches
  options.set_max_mem(memory_budget(lim.max_program_size));
  auto re = std::make_shared<const re2::RE2>(*translated, options);
  auto too_large = [&] {
    return make_error(schema_failure::pattern_too_large,
                      refusal("too complex: its compiled program exceeds " + std::to_string(lim.max_program_size) +
                              " instructions (simplify it or use fewer or smaller repetitions)"));
  };
  if (!re->ok()) {
    if (re->error_code() == RE2::ErrorPatternTooLarge) return too_large();
    if (re->error_code() == RE2::ErrorRepeatSize)
      return fail("repetitions nest too deeply: RE2 caps the combined count at " + std::to_string(max_js_repeat_count));
    return fail("the regular expression engine refused it (" + re->error() + ")");
  }
  if (re->ProgramSize() < 0 || static_cast<std::size_t>(re->ProgramSize()) > lim.max_program_size) return too_large();
  js_regex out;
  out.source_ = std::string(source);
  out.re_ = std::move(re);
  return out;
}

bool js_regex::search(std::string_view text) const {
  return RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *re_);
}

std::size_t js_regex::program_size() const { return static_cast<std::size_t>(re_->ProgramSize()); }

}  // namespace opentabs::schema
