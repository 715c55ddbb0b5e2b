// Small string helpers shared by every module (case-insensitive compare, trimming,
// splitting, edit distance for did-you-mean suggestions, quoting a value for an error).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace opentabs {

// ASCII case folding, inline: header names and tokens are ASCII, and std::tolower is a
// locale-dependent libc call per character on the path of every header lookup.  Bytes
// outside A–Z are left as they are, as std::tolower does in the C locale.
constexpr char ascii_lower(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
// Inline: header lookups call it on every request.
inline bool iequals(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  return true;
}
std::string to_lower(std::string_view s);
std::string_view trim(std::string_view s) noexcept;
std::vector<std::string_view> split(std::string_view s, char sep);
// Whether `needle` occurs in `haystack` ignoring ASCII case (no copy of either).
bool icontains(std::string_view haystack, std::string_view needle) noexcept;

// The parts of `s` between `sep`s, one at a time, as split() gives them but without
// building a vector (header values are split on every request): a string with n
// separators has n + 1 parts, so "" has one empty part and "a," has "a" and "".
class part_reader {
 public:
  part_reader(std::string_view s, char sep) noexcept : rest_(s), sep_(sep) {}
  // Sets `part` to the next part; false after the last.
  bool next(std::string_view& part) noexcept;

 private:
  std::string_view rest_;
  char sep_;
  bool done_ = false;
};
bool starts_with(std::string_view s, std::string_view prefix) noexcept;

// The value of the first (name, value) field whose name equals `name` ignoring ASCII case
// (HTTP header fields, requests and responses alike); nullptr when there is none.
const std::string* find_header_field(const std::vector<std::pair<std::string, std::string>>& fields,
                                     std::string_view name);

// Levenshtein distance, used for "did you mean" hints.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word` within `max_distance`, or empty.
std::string closest_match(std::string_view word, const std::vector<std::string>& candidates,
                          std::size_t max_distance = 3);

// `text` in double quotes for an error message: at most `max_bytes` of it (cut on a UTF-8
// character boundary, the cut marked "…") with control characters (C0 and DEL) shown as '?',
// so that a value someone else chose can neither flood the message nor forge a log line.
std::string quote_for_error(std::string_view text, std::size_t max_bytes = 100);
// The same without the quotes, for a value that stands on its own as a label.
std::string excerpt_for_error(std::string_view text, std::size_t max_bytes = 100);

// Constant-time equality for secrets: the time taken depends only on the lengths.
bool constant_time_equals(std::string_view a, std::string_view b) noexcept;

}  // namespace opentabs
