#include "schema/formats.hpp"


#include <cctype>
#include <optional>
#include <string>

namespace opentabs::schema {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_alnum(char c) { return is_alpha(c) || is_digit(c); }

// n decimal digits at s[pos..]; advances pos.
bool digits(std::string_view s, std::size_t& pos, int n, int& out) {
  if (pos + static_cast<std::size_t>(n) > s.size()) return false;
  out = 0;
  for (int i = 0; i < n; ++i) {
    char c = s[pos + static_cast<std::size_t>(i)];
    if (!is_digit(c)) return false;
    out = out * 10 + (c - '0');
  }
  pos += static_cast<std::size_t>(n);
  return true;
}

bool leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

bool parse_date(std::string_view s, std::size_t& pos) {
  int y, m, d;
  if (!digits(s, pos, 4, y) || pos >= s.size() || s[pos++] != '-') return false;
  if (!digits(s, pos, 2, m) || pos >= s.size() || s[pos++] != '-') return false;
  if (!digits(s, pos, 2, d)) return false;
  static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (m < 1 || m > 12 || d < 1) return false;
  int max = days[m - 1] + (m == 2 && leap(y) ? 1 : 0);
  return d <= max;
}

// HH:MM[:SS[.fraction]] then an optional zone (Z or ±HH:MM); `zone_required` for date-time
// is deliberately false: Zod's local date-times carry no zone and its own pattern (sent
// alongside the format) decides whether one is required.
bool parse_time(std::string_view s, std::size_t& pos, bool seconds_required) {
  int h, mi, se = 0;
  if (!digits(s, pos, 2, h) || pos >= s.size() || s[pos++] != ':') return false;
  if (!digits(s, pos, 2, mi)) return false;
  if (pos < s.size() && s[pos] == ':') {
    ++pos;
    if (!digits(s, pos, 2, se)) return false;
    if (pos < s.size() && s[pos] == '.') {
      ++pos;
      std::size_t start = pos;
      while (pos < s.size() && is_digit(s[pos])) ++pos;
      if (pos == start) return false;
    }
  } else if (seconds_required) {
    return false;
  }
  if (h > 23 || mi > 59 || se > 60) return false;
  if (pos == s.size()) return true;
  if (s[pos] == 'Z' || s[pos] == 'z') return ++pos == s.size();
  if (s[pos] == '+' || s[pos] == '-') {
    ++pos;
    int zh, zm;
    if (!digits(s, pos, 2, zh)) return false;
    if (pos < s.size() && s[pos] == ':') ++pos;
    if (!digits(s, pos, 2, zm)) return false;
    return zh <= 23 && zm <= 59 && pos == s.size();
  }
  return false;
}

bool is_date(std::string_view s) {
  std::size_t pos = 0;
  return parse_date(s, pos) && pos == s.size();
}

bool is_time(std::string_view s) {
  std::size_t pos = 0;
  return parse_time(s, pos, false);
}

bool is_date_time(std::string_view s) {
  std::size_t pos = 0;
  if (!parse_date(s, pos) || pos >= s.size()) return false;
  char sep = s[pos++];
  if (sep != 'T' && sep != 't' && sep != ' ') return false;
  return parse_time(s, pos, false);
}

bool is_ipv4(std::string_view s) {
  int parts = 0;
  std::size_t pos = 0;
  while (true) {
    std::size_t start = pos;
    int v = 0;
    while (pos < s.size() && is_digit(s[pos]) && pos - start < 3) v = v * 10 + (s[pos++] - '0');
    std::size_t len = pos - start;
    if (len == 0 || v > 255 || (len > 1 && s[start] == '0')) return false;
    ++parts;
    if (pos == s.size()) break;
    if (s[pos] != '.' || parts == 4) return false;
    ++pos;
  }
  return parts == 4;
}

// The 16-bit groups of one side of an IPv6 address ("a:b:c"); `v4_tail` allows a dotted
// IPv4 address as the last part (worth two groups).  nullopt when malformed.
std::optional<int> ipv6_groups(std::string_view part, bool v4_tail) {
  int groups = 0;
  if (part.empty()) return groups;
  std::size_t pos = 0;
  while (true) {
    const std::size_t end = part.find(':', pos);
    const auto group = part.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
    if (end == std::string_view::npos && v4_tail && group.find('.') != std::string_view::npos)
      return is_ipv4(group) ? std::optional<int>(groups + 2) : std::nullopt;
    if (group.empty() || group.size() > 4) return std::nullopt;
    for (char c : group)
      if (!std::isxdigit(static_cast<unsigned char>(c))) return std::nullopt;
    ++groups;
    if (end == std::string_view::npos) return groups;
    pos = end + 1;
  }
}

// RFC 4291 section 2.2 text forms: eight groups, or fewer around one "::", the last 32 bits
// optionally in dotted IPv4 form.
bool is_ipv6(std::string_view s) {
  if (s.empty() || s.size() > 45) return false;
  const auto gap = s.find("::");
  if (gap == std::string_view::npos) {
    auto groups = ipv6_groups(s, true);
    return groups && *groups == 8;
  }
  if (s.find("::", gap + 1) != std::string_view::npos) return false;
  auto head = ipv6_groups(s.substr(0, gap), false);
  auto tail = ipv6_groups(s.substr(gap + 2), true);
  return head && tail && *head + *tail <= 7;
}

bool is_hostname(std::string_view s) {
  if (s.empty() || s.size() > 253) return false;
  std::size_t label = 0;
  char prev = '.';
  for (char c : s) {
    if (c == '.') {
      if (label == 0 || prev == '-') return false;
      label = 0;
    } else if (is_alnum(c) || c == '-') {
      if (label == 0 && c == '-') return false;
      if (++label > 63) return false;
    } else {
      return false;
    }
    prev = c;
  }
  return label > 0 && prev != '-';
}

// The local part as ajv-formats' "email" accepts it: dot-separated atoms of
// [A-Za-z0-9!#$%&'*+/=?^_`{|}~-]; domain: dot-separated hostname labels, at least two.
bool is_email(std::string_view s) {
  auto at = s.rfind('@');
  if (at == std::string_view::npos || at == 0 || at + 1 >= s.size() || s.size() > 320) return false;
  std::string_view local = s.substr(0, at), domain = s.substr(at + 1);
  static const std::string_view atom_chars = "!#$%&'*+/=?^_`{|}~-";
  char prev = '.';
  for (char c : local) {
    if (c == '.') {
      if (prev == '.') return false;
    } else if (!is_alnum(c) && atom_chars.find(c) == std::string_view::npos) {
      return false;
    }
    prev = c;
  }
  if (prev == '.') return false;
  return domain.find('.') != std::string_view::npos && is_hostname(domain);
}

// RFC 3986 absolute URI: scheme ":" then characters allowed in URIs, with well-formed
// percent escapes.  (ajv-formats' "uri" is the same shape; it does not resolve hosts.)
bool is_uri(std::string_view s) {
  auto colon = s.find(':');
  if (colon == std::string_view::npos || colon == 0 || !is_alpha(s[0])) return false;
  for (std::size_t i = 1; i < colon; ++i) {
    char c = s[i];
    if (!is_alnum(c) && c != '+' && c != '-' && c != '.') return false;
  }
  static const std::string_view allowed = "-._~:/?#[]@!$&'()*+,;=";
  for (std::size_t i = colon + 1; i < s.size(); ++i) {
    char c = s[i];
    if (c == '%') {
      if (i + 2 >= s.size() || !is_hex(s[i + 1]) || !is_hex(s[i + 2])) return false;
      i += 2;
    } else if (static_cast<unsigned char>(c) >= 0x80) {
      continue;  // IRIs: non-ASCII characters are accepted as ajv-formats does for "uri"
    } else if (!is_alnum(c) && allowed.find(c) == std::string_view::npos) {
      return false;
    }
  }
  // "http://" needs a host.
  std::string_view rest = s.substr(colon + 1);
  if (rest.substr(0, 2) == "//") {
    std::string_view authority = rest.substr(2);
    authority = authority.substr(0, authority.find_first_of("/?#"));
    auto at = authority.rfind('@');
    if (at != std::string_view::npos) authority = authority.substr(at + 1);
    std::string scheme = std::string(s.substr(0, colon));
    for (auto& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (authority.empty() && scheme != "file") return false;
  }
  return true;
}

bool is_uuid(std::string_view s) {
  if (s.substr(0, 9) == "urn:uuid:") s.remove_prefix(9);
  if (s.size() != 36) return false;
  for (std::size_t i = 0; i < 36; ++i) {
    bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? s[i] != '-' : !is_hex(s[i])) return false;
  }
  return true;
}

}  // namespace

bool is_checked_format(std::string_view f) noexcept {
  return f == "email" || f == "uri" || f == "url" || f == "uuid" || f == "date-time" || f == "date" ||
         f == "time" || f == "ipv4" || f == "ipv6" || f == "hostname";
}

bool check_format(std::string_view f, std::string_view v) {
  if (f == "email") return is_email(v);
  if (f == "uri" || f == "url") return is_uri(v);
  if (f == "uuid") return is_uuid(v);
  if (f == "date-time") return is_date_time(v);
  if (f == "date") return is_date(v);
  if (f == "time") return is_time(v);
  if (f == "ipv4") return is_ipv4(v);
  if (f == "ipv6") return is_ipv6(v);
  if (f == "hostname") return is_hostname(v);
  return true;
}

}  // namespace opentabs::schema
