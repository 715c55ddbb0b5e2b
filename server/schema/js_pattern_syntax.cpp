#include "schema/js_pattern_syntax.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <utility>
#include <vector>

namespace opentabs::schema {
namespace {

constexpr char32_t kNone = 0x110000;  // past the end of the pattern
constexpr char32_t kMaxCodePoint = 0x10FFFF;
constexpr std::size_t kMaxGroupNesting = 200;

// UTF-8 → UTF-32 (invalid sequences become U+FFFD).
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

using range_set = std::vector<std::pair<char32_t, char32_t>>;

// JavaScript's \s: WhiteSpace and LineTerminator (ECMA-262 §22.2.2.9), sorted.
const range_set& js_space() {
  static const range_set s{{0x09, 0x0D}, {0x20, 0x20},     {0xA0, 0xA0},     {0x1680, 0x1680}, {0x2000, 0x200A},
                           {0x2028, 0x2029}, {0x202F, 0x202F}, {0x205F, 0x205F}, {0x3000, 0x3000}, {0xFEFF, 0xFEFF}};
  return s;
}
const range_set& js_digit() {
  static const range_set s{{'0', '9'}};
  return s;
}
const range_set& js_word() {
  static const range_set s{{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}};
  return s;
}

range_set complement(const range_set& in) {
  range_set out;
  char32_t next = 0;
  for (auto [lo, hi] : in) {
    if (lo > next) out.emplace_back(next, lo - 1);
    next = hi + 1;
  }
  if (next <= kMaxCodePoint) out.emplace_back(next, kMaxCodePoint);
  return out;
}

std::string code_point(char32_t c) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "\\x{%x}", static_cast<unsigned>(c));
  return buf;
}

std::string ranges_text(const range_set& set) {
  std::string out;
  for (auto [lo, hi] : set) {
    out += code_point(lo);
    if (hi != lo) out += "-" + code_point(hi);
  }
  return out;
}

// \d \D \w \W \s \S as the inside of a bracket class.
std::string class_escape_ranges(char32_t letter) {
  switch (letter) {
    case 'd': return ranges_text(js_digit());
    case 'D': return ranges_text(complement(js_digit()));
    case 'w': return ranges_text(js_word());
    case 'W': return ranges_text(complement(js_word()));
    case 's': return ranges_text(js_space());
    default: return ranges_text(complement(js_space()));  // 'S'
  }
}

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

// For messages: one pattern character as the author wrote it.
std::string shown(char32_t c) {
  if (c == kNone) return "end of pattern";
  std::string out;
  if (c < 0x20 || c == 0x7F) return code_point(c);
  append_utf8(out, c);
  return out;
}

bool is_ascii_letter(char32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char32_t c) { return c >= '0' && c <= '9'; }
int hex_value(char32_t c) {
  if (c >= '0' && c <= '9') return static_cast<int>(c - '0');
  if (c >= 'a' && c <= 'f') return static_cast<int>(c - 'a' + 10);
  if (c >= 'A' && c <= 'F') return static_cast<int>(c - 'A' + 10);
  return -1;
}
bool is_syntax_character(char32_t c) {
  return c < 0x80 && std::string_view("^$\\.*+?()[]{}|/").find(static_cast<char>(c)) != std::string_view::npos;
}

// General_Category values RE2 knows with the same extent as in JavaScript.  (C, Cn and LC
// are left out: RE2's C omits unassigned code points and it has neither Cn nor LC.)
const char* general_category(std::string_view name) {
  static const std::array<std::pair<std::string_view, const char*>, 70> table{{
      {"L", "L"},   {"Letter", "L"},    {"Lu", "Lu"}, {"Uppercase_Letter", "Lu"},    {"Ll", "Ll"},
      {"Lowercase_Letter", "Ll"},       {"Lt", "Lt"}, {"Titlecase_Letter", "Lt"},    {"Lm", "Lm"},
      {"Modifier_Letter", "Lm"},        {"Lo", "Lo"}, {"Other_Letter", "Lo"},        {"M", "M"},
      {"Mark", "M"},                    {"Combining_Mark", "M"},                     {"Mn", "Mn"},
      {"Nonspacing_Mark", "Mn"},        {"Mc", "Mc"}, {"Spacing_Mark", "Mc"},        {"Me", "Me"},
      {"Enclosing_Mark", "Me"},         {"N", "N"},   {"Number", "N"},               {"Nd", "Nd"},
      {"Decimal_Number", "Nd"},         {"digit", "Nd"},                             {"Nl", "Nl"},
      {"Letter_Number", "Nl"},          {"No", "No"}, {"Other_Number", "No"},        {"P", "P"},
      {"Punctuation", "P"},             {"punct", "P"},                              {"Pc", "Pc"},
      {"Connector_Punctuation", "Pc"},  {"Pd", "Pd"}, {"Dash_Punctuation", "Pd"},    {"Ps", "Ps"},
      {"Open_Punctuation", "Ps"},       {"Pe", "Pe"}, {"Close_Punctuation", "Pe"},   {"Pi", "Pi"},
      {"Initial_Punctuation", "Pi"},    {"Pf", "Pf"}, {"Final_Punctuation", "Pf"},   {"Po", "Po"},
      {"Other_Punctuation", "Po"},      {"S", "S"},   {"Symbol", "S"},               {"Sm", "Sm"},
      {"Math_Symbol", "Sm"},            {"Sc", "Sc"}, {"Currency_Symbol", "Sc"},     {"Sk", "Sk"},
      {"Modifier_Symbol", "Sk"},        {"So", "So"}, {"Other_Symbol", "So"},        {"Z", "Z"},
      {"Separator", "Z"},               {"Zs", "Zs"}, {"Space_Separator", "Zs"},     {"Zl", "Zl"},
      {"Line_Separator", "Zl"},         {"Zp", "Zp"}, {"Paragraph_Separator", "Zp"}, {"Cc", "Cc"},
      {"Control", "Cc"},                {"cntrl", "Cc"},                             {"Cf", "Cf"},
      {"Format", "Cf"},
  }};
  for (auto& [k, v] : table)
    if (k == name) return v;
  return nullptr;
}

// One atom inside a bracket class: a code point, or a set already in RE2 class syntax.
struct class_atom {
  bool is_set = false;
  char32_t cp = 0;
  std::string set_text;
};

class parser {
 public:
  explicit parser(std::u32string s) : s_(std::move(s)) {}

  result<std::string> run() {
    if (!disjunction(0)) return make_error(errc::unsupported, error_);
    if (i_ < s_.size()) return make_error(errc::unsupported, "an unmatched ')' is not valid");
    return std::move(out_);
  }

 private:
  char32_t peek(std::size_t k = 0) const { return i_ + k < s_.size() ? s_[i_ + k] : kNone; }
  bool fail(std::string why) {
    error_ = std::move(why);
    return false;
  }
  bool unsupported(const std::string& construct) {
    return fail(construct + " are not supported (patterns run on a linear-time engine, RE2, which has none)");
  }

  void literal(char32_t c) {
    if ((c < 0x80 && (is_ascii_letter(c) || is_digit(c))) || (c >= 0x80 && (c < 0xD800 || c > 0xDFFF)))
      append_utf8(out_, c);
    else
      out_ += code_point(c);
  }

  bool disjunction(std::size_t depth) {
    for (;;) {
      while (i_ < s_.size() && peek() != '|' && peek() != ')')
        if (!term(depth)) return false;
      if (peek() != '|') return true;
      out_ += '|';
      ++i_;
    }
  }

  bool term(std::size_t depth) {
    char32_t c = peek();
    bool quantifiable = true;
    switch (c) {
      case '^':
      case '$':
        // RE2 without (?m): start and end of the whole text, as in JavaScript without `m`.
        out_ += static_cast<char>(c);
        ++i_;
        quantifiable = false;
        break;
      case '\\':
        if (peek(1) == 'b' || peek(1) == 'B') {  // ASCII word boundaries in both
          out_ += peek(1) == 'b' ? "\\b" : "\\B";
          i_ += 2;
          quantifiable = false;
        } else if (!atom_escape()) {
          return false;
        }
        break;
      case '(':
        if (!group(depth)) return false;
        break;
      case '.':
        out_ += "[^\\x{a}\\x{d}\\x{2028}\\x{2029}]";
        ++i_;
        break;
      case '[':
        if (!bracket_class()) return false;
        break;
      case '*':
      case '+':
      case '?':
        return fail("a quantifier '" + shown(c) + "' with nothing to repeat is not valid");
      case '{':
        if (quantifier_length() > 0) return fail("a quantifier {n,m} with nothing to repeat is not valid");
        return fail("a lone '{' is not valid (write \\{)");
      case '}':
        return fail("a lone '}' is not valid (write \\})");
      case ']':
        return fail("a lone ']' is not valid (write \\])");
      default:
        literal(c);
        ++i_;
    }
    c = peek();
    if (c != '*' && c != '+' && c != '?' && !(c == '{' && quantifier_length() > 0)) return true;
    if (!quantifiable) return fail("a quantifier after an assertion (^, $, \\b, \\B) is not valid");
    return quantifier();
  }

  // Length of a well-formed {n}, {n,} or {n,m} at the current position, else 0.
  std::size_t quantifier_length() const {
    std::size_t k = 1;
    if (!is_digit(peek(k))) return 0;
    while (is_digit(peek(k))) ++k;
    if (peek(k) == ',') {
      ++k;
      while (is_digit(peek(k))) ++k;
    }
    return peek(k) == '}' ? k + 1 : 0;
  }

  // Reads digits, saturating well above any accepted count.
  std::size_t read_count() {
    std::size_t n = 0;
    while (is_digit(peek())) {
      n = std::min<std::size_t>(n * 10 + (peek() - '0'), 1'000'000'000);
      ++i_;
    }
    return n;
  }

  bool quantifier() {
    char32_t c = peek();
    if (c != '{') {
      out_ += static_cast<char>(c);
      ++i_;
    } else {
      ++i_;
      std::size_t lo = read_count(), hi = lo;
      bool open = false, has_hi = true;
      if (peek() == ',') {
        ++i_;
        has_hi = is_digit(peek());
        if (has_hi) hi = read_count();
        else open = true;
      }
      ++i_;  // '}'
      if (lo > max_js_repeat_count || (has_hi && hi > max_js_repeat_count))
        return fail("a repetition count of " + std::to_string(std::max(lo, has_hi ? hi : lo)) + " is not supported (at most " +
                    std::to_string(max_js_repeat_count) + ")");
      if (!open && hi < lo) return fail("a repetition {" + std::to_string(lo) + "," + std::to_string(hi) + "} with its numbers out of order is not valid");
      out_ += "{" + std::to_string(lo);
      if (open) out_ += ",";
      else if (hi != lo) out_ += "," + std::to_string(hi);
      out_ += "}";
    }
    if (peek() == '?') {  // lazy: same set of matches, which is all a search needs
      out_ += '?';
      ++i_;
    }
    return true;
  }

  bool group(std::size_t depth) {
    if (depth >= kMaxGroupNesting) return fail("groups nested deeper than " + std::to_string(kMaxGroupNesting) + " levels are not supported");
    ++i_;  // '('
    if (peek() == '?') {
      char32_t k = peek(1);
      if (k == ':') {
        i_ += 2;
      } else if (k == '=' || k == '!') {
        return unsupported("lookahead assertions ((?=...), (?!...))");
      } else if (k == '<' && (peek(2) == '=' || peek(2) == '!')) {
        return unsupported("lookbehind assertions ((?<=...), (?<!...))");
      } else if (k == '<') {
        // A named group: only the grouping matters for a search.
        i_ += 2;
        std::size_t start = i_;
        while (i_ < s_.size() && peek() != '>') {
          char32_t c = peek();
          if (!(is_ascii_letter(c) || is_digit(c) || c == '_' || c == '$' || c >= 0x80) || (i_ == start && is_digit(c)))
            return fail("an invalid group name is not valid");
          ++i_;
        }
        if (peek() != '>' || i_ == start) return fail("an invalid group name is not valid");
        ++i_;
      } else {
        return unsupported("inline modifiers and other (?...) groups");
      }
    }
    out_ += "(?:";
    if (!disjunction(depth + 1)) return false;
    if (peek() != ')') return fail("an unterminated group (missing ')') is not valid");
    ++i_;
    out_ += ')';
    return true;
  }

  // After a backslash outside a class.
  bool atom_escape() {
    char32_t c = peek(1);
    if (c == kNone) return fail("a trailing backslash is not valid");
    if (c >= '1' && c <= '9') return unsupported("back-references (\\" + shown(c) + ")");
    if (c == 'k') return unsupported("named back-references (\\k<name>)");
    if (c == 'd' || c == 'D' || c == 'w' || c == 'W' || c == 's' || c == 'S') {
      out_ += "[" + class_escape_ranges(c) + "]";
      i_ += 2;
      return true;
    }
    if (c == 'p' || c == 'P') {
      std::string text;
      if (!property_escape(text)) return false;
      out_ += text;
      return true;
    }
    char32_t cp = 0;
    if (!character_escape(false, cp)) return false;
    literal(cp);
    return true;
  }

  // \p{...} / \P{...} → RE2's spelling.
  bool property_escape(std::string& text) {
    bool negated = peek(1) == 'P';
    if (peek(2) != '{') return fail("\\p and \\P must be followed by {property} in a pattern");
    i_ += 3;
    std::string name;
    while (i_ < s_.size() && peek() != '}') {
      char32_t c = peek();
      if (!(is_ascii_letter(c) || is_digit(c) || c == '_' || c == '=')) return fail("an invalid Unicode property escape is not valid");
      name.push_back(static_cast<char>(c));
      ++i_;
    }
    if (peek() != '}') return fail("an unterminated Unicode property escape (missing '}') is not valid");
    ++i_;
    std::string_view n = name;
    std::string re2_name;
    auto eq = n.find('=');
    if (eq == std::string_view::npos) {
      if (const char* gc = general_category(n)) re2_name = gc;
    } else {
      auto key = n.substr(0, eq), value = n.substr(eq + 1);
      if (key == "General_Category" || key == "gc") {
        if (const char* gc = general_category(value)) re2_name = gc;
      } else if ((key == "Script" || key == "sc") && !value.empty() && value.find('=') == std::string_view::npos) {
        re2_name = std::string(value);  // RE2 uses the Unicode script names; it refuses unknown ones
      }
    }
    if (re2_name.empty())
      return unsupported("the Unicode property \\" + std::string(negated ? "P" : "p") + "{" + name +
                         "} (only General_Category values and Script=...) and similar properties");
    text = std::string(negated ? "\\P{" : "\\p{") + re2_name + "}";
    return true;
  }

  // A CharacterEscape (and, in a class, \b and \-): the code point it stands for.
  bool character_escape(bool in_class, char32_t& cp) {
    char32_t c = peek(1);
    switch (c) {
      case 't': cp = 0x09; i_ += 2; return true;
      case 'n': cp = 0x0A; i_ += 2; return true;
      case 'v': cp = 0x0B; i_ += 2; return true;
      case 'f': cp = 0x0C; i_ += 2; return true;
      case 'r': cp = 0x0D; i_ += 2; return true;
      case 'c':
        if (!is_ascii_letter(peek(2))) return fail("\\c not followed by a letter is not valid");
        cp = peek(2) % 32;
        i_ += 3;
        return true;
      case '0':
        if (is_digit(peek(2))) return fail("octal escapes (\\0 followed by a digit) are not valid");
        cp = 0;
        i_ += 2;
        return true;
      case 'x': {
        int a = hex_value(peek(2)), b = hex_value(peek(3));
        if (a < 0 || b < 0) return fail("\\x not followed by two hex digits is not valid");
        cp = static_cast<char32_t>(a * 16 + b);
        i_ += 4;
        return true;
      }
      case 'u': return unicode_escape(cp);
      default: break;
    }
    if (in_class && c == 'b') { cp = 0x08; i_ += 2; return true; }
    if (in_class && c == '-') { cp = '-'; i_ += 2; return true; }
    if (is_syntax_character(c)) { cp = c; i_ += 2; return true; }
    return fail("the escape \\" + shown(c) + " is not valid with the u flag");
  }

  bool unicode_escape(char32_t& cp) {
    if (peek(2) == '{') {
      std::size_t k = 3;
      std::uint32_t v = 0;
      while (hex_value(peek(k)) >= 0) {
        v = std::min<std::uint32_t>(v * 16 + static_cast<std::uint32_t>(hex_value(peek(k))), 0x7FFFFFFF);
        ++k;
      }
      if (k == 3 || peek(k) != '}' || v > kMaxCodePoint) return fail("an invalid \\u{...} escape is not valid");
      i_ += k + 1;
      cp = v;
    } else {
      auto four = [&](std::size_t at) -> int {
        int v = 0;
        for (std::size_t k = 0; k < 4; ++k) {
          int h = hex_value(peek(at + k));
          if (h < 0) return -1;
          v = v * 16 + h;
        }
        return v;
      };
      int v = four(2);
      if (v < 0) return fail("\\u not followed by four hex digits is not valid");
      i_ += 6;
      cp = static_cast<char32_t>(v);
      if (cp >= 0xD800 && cp <= 0xDBFF && peek() == '\\' && peek(1) == 'u') {
        int low = four(2);
        if (low >= 0xDC00 && low <= 0xDFFF) {
          cp = 0x10000 + ((cp - 0xD800) << 10) + (static_cast<char32_t>(low) - 0xDC00);
          i_ += 6;
        }
      }
    }
    if (cp >= 0xD800 && cp <= 0xDFFF) return unsupported("lone surrogate escapes (\\uD800-\\uDFFF)");
    return true;
  }

  bool read_class_atom(class_atom& a) {
    char32_t c = peek();
    if (c != '\\') {
      a.cp = c;
      ++i_;
      return true;
    }
    char32_t k = peek(1);
    if (k == kNone) return fail("a trailing backslash is not valid");
    if (k == 'd' || k == 'D' || k == 'w' || k == 'W' || k == 's' || k == 'S') {
      a.is_set = true;
      a.set_text = class_escape_ranges(k);
      i_ += 2;
      return true;
    }
    if (k == 'p' || k == 'P') {
      a.is_set = true;
      return property_escape(a.set_text);
    }
    if (k >= '1' && k <= '9') return unsupported("back-references (\\" + shown(k) + ")");
    if (k == 'k') return unsupported("named back-references (\\k<name>)");
    return character_escape(true, a.cp);
  }

  bool bracket_class() {
    ++i_;  // '['
    bool negated = false;
    if (peek() == '^') {
      negated = true;
      ++i_;
    }
    std::string items;
    for (;;) {
      if (i_ >= s_.size()) return fail("an unterminated character class (missing ']') is not valid");
      if (peek() == ']') {
        ++i_;
        break;
      }
      class_atom a;
      if (!read_class_atom(a)) return false;
      if (peek() == '-' && peek(1) != ']' && peek(1) != kNone) {
        ++i_;
        class_atom b;
        if (!read_class_atom(b)) return false;
        if (a.is_set || b.is_set) return fail("a class range with a class escape at an end (like [\\d-z]) is not valid");
        if (a.cp > b.cp) return fail("a class range out of order (" + shown(a.cp) + "-" + shown(b.cp) + ") is not valid");
        items += ranges_text({{a.cp, b.cp}});
      } else {
        items += a.is_set ? a.set_text : ranges_text({{a.cp, a.cp}});
      }
    }
    if (items.empty()) {
      // [] matches nothing, [^] any code point (line terminators included).
      out_ += negated ? "[\\x{0}-\\x{10ffff}]" : "[^\\x{0}-\\x{10ffff}]";
      return true;
    }
    out_ += negated ? "[^" : "[";
    out_ += items;
    out_ += ']';
    return true;
  }

  std::u32string s_;
  std::size_t i_ = 0;
  std::string out_;
  std::string error_;
};

}  // namespace

result<std::string> js_pattern_to_re2(std::string_view source) {
  return parser(utf8_to_utf32(source)).run();
}

}  // namespace opentabs::schema
