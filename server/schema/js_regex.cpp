#include "schema/js_regex.hpp"

namespace opentabs::schema {
namespace {

// JavaScript constructs that std::regex either rejects with an obscure message or, worse,
// accepts with another meaning (`\p{L}` would match the letters "p{L}").
std::string find_unsupported_syntax(std::string_view s) {
  bool in_class = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '\\') {
      if (i + 1 >= s.size()) return "a trailing backslash";
      char n = s[i + 1];
      if (n == 'p' || n == 'P') return "Unicode property escapes (\\p{...})";
      if (n == 'k') return "named back-references (\\k<...>)";
      if (n == 'u' && i + 2 < s.size() && s[i + 2] == '{') return "code point escapes (\\u{...})";
      if (!in_class && n >= '1' && n <= '9') return "back-references";
      ++i;
      continue;
    }
    if (in_class) {
      if (c == ']') in_class = false;
      continue;
    }
    if (c == '[') {
      in_class = true;
      // A ']' right after '[' or '[^' is literal in neither JS nor ECMAScript std::regex;
      // nothing to special-case here.
      continue;
    }
    if (c == '(' && i + 2 < s.size() && s[i + 1] == '?' && s[i + 2] == '<')
      return "lookbehind assertions and named groups ((?<...)";
  }
  return {};
}

}  // namespace

std::u32string utf8_to_utf32(std::string_view s) {
  std::u32string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    char32_t cp = 0;
    std::size_t len = 0;
    if (c < 0x80) { cp = c; len = 1; }
    else if ((c & 0xE0) == 0xC0) { cp = c & 0x1F; len = 2; }
    else if ((c & 0xF0) == 0xE0) { cp = c & 0x0F; len = 3; }
    else if ((c & 0xF8) == 0xF0) { cp = c & 0x07; len = 4; }
    else { out.push_back(0xFFFD); ++i; continue; }
    if (i + len > s.size()) { out.push_back(0xFFFD); ++i; continue; }
    bool good = true;
    for (std::size_t k = 1; k < len; ++k) {
      unsigned char cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) { good = false; break; }
      cp = (cp << 6) | (cc & 0x3F);
    }
    if (!good) { out.push_back(0xFFFD); ++i; continue; }
    out.push_back(cp);
    i += len;
  }
  return out;
}

result<js_regex> js_regex::compile(std::string_view source, std::size_t max_length) {
  auto fail = [&](const std::string& why) {
    std::string shown(source.substr(0, 200));
    if (source.size() > 200) shown += "...";
    return make_error("unsupported_pattern", "pattern \"" + shown + "\" cannot be used: " + why);
  };
  if (source.size() > max_length)
    return fail("longer than " + std::to_string(max_length) + " characters");
  if (auto why = find_unsupported_syntax(source); !why.empty()) return fail(why + " are not supported");
  std::u32string wide = utf8_to_utf32(source);
  std::wstring w(wide.begin(), wide.end());  // wchar_t is UTF-32 on this platform
  static_assert(sizeof(wchar_t) == 4, "js_regex relies on 32-bit wchar_t");
  try {
    auto re = std::make_shared<const std::wregex>(
        w, std::regex_constants::ECMAScript | std::regex_constants::__polynomial);
    js_regex out;
    out.source_ = std::string(source);
    out.re_ = std::move(re);
    return out;
  } catch (const std::regex_error& e) {
    return fail(std::string("invalid or too complex (") + e.what() + ")");
  }
}

bool js_regex::search(std::string_view text) const {
  std::u32string wide = utf8_to_utf32(text);
  std::wstring w(wide.begin(), wide.end());
  return std::regex_search(w, *re_);
}

}  // namespace opentabs::schema
