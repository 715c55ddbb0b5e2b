#include "util/strings.hpp"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace opentabs {

std::string to_lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = ascii_lower(c);
  return out;
}

std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r' || s.front() == '\n'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
    s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    auto pos = s.find(sep, start);
    if (pos == std::string_view::npos) {
      parts.push_back(s.substr(start));
      return parts;
    }
    parts.push_back(s.substr(start, pos - start));
    start = pos + 1;
  }
}

bool icontains(std::string_view haystack, std::string_view needle) noexcept {
  if (needle.size() > haystack.size()) return false;
  for (std::size_t at = 0; at + needle.size() <= haystack.size(); ++at)
    if (iequals(haystack.substr(at, needle.size()), needle)) return true;
  return false;
}

bool part_reader::next(std::string_view& part) noexcept {
  if (done_) return false;
  auto pos = rest_.find(sep_);
  if (pos == std::string_view::npos) {
    part = rest_;
    done_ = true;
  } else {
    part = rest_.substr(0, pos);
    rest_.remove_prefix(pos + 1);
  }
  return true;
}

bool starts_with(std::string_view s, std::string_view prefix) noexcept {
  return s.substr(0, prefix.size()) == prefix;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string closest_match(std::string_view word, const std::vector<std::string>& candidates,
                          std::size_t max_distance) {
  std::string best;
  std::size_t best_d = max_distance + 1;
  for (const auto& c : candidates) {
    auto d = edit_distance(word, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best;
}

const std::string* find_header_field(const std::vector<std::pair<std::string, std::string>>& fields,
                                     std::string_view name) {
  for (const auto& [k, v] : fields)
    if (iequals(k, name)) return &v;
  return nullptr;
}

std::string excerpt_for_error(std::string_view text, std::size_t max_bytes) {
  std::size_t keep = std::min(text.size(), max_bytes);
  // Back off to the start of a UTF-8 character (continuation bytes are 10xxxxxx).
  if (keep < text.size())
    while (keep > 0 && (static_cast<unsigned char>(text[keep]) & 0xC0) == 0x80) --keep;
  std::string out;
  out.reserve(keep + 3);
  for (char c : text.substr(0, keep)) out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
  if (keep < text.size()) out += "…";
  return out;
}

std::string quote_for_error(std::string_view text, std::size_t max_bytes) {
  return "\"" + excerpt_for_error(text, max_bytes) + "\"";
}

bool constant_time_equals(std::string_view a, std::string_view b) noexcept {
  if (a.size() == b.size()) {
    // The usual case (a right-length token): one pass without per-byte bounds checks, which
    // the compiler can vectorise; still no early exit, so the time depends on the length only.
    unsigned char diff = 0;
    for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
  }
  // Compare over the longer length so a mismatch in length costs the same as a mismatch in content.
  std::size_t n = std::max(a.size(), b.size());
  unsigned char diff = static_cast<unsigned char>(a.size() != b.size());
  for (std::size_t i = 0; i < n; ++i) {
    unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
    unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
    diff |= static_cast<unsigned char>(x ^ y);
  }
  return diff == 0;
}

}  // namespace opentabs
