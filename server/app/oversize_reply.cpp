// A tiny forward scanner over the first bytes of a JSON object: it tracks nesting and string
// state only, enough to tell a top-level "id" key from one inside "result".
#include "app/oversize_reply.hpp"

#include <algorithm>

namespace opentabs::app {
namespace {

constexpr std::size_t max_id_length = 200;

// Reads a JSON string starting at the opening quote `pos`; returns its raw contents and moves
// `pos` past the closing quote.  Escapes are kept as written: ids we issue have none.
std::optional<std::string_view> read_string(std::string_view text, std::size_t& pos) {
  const std::size_t start = ++pos;
  while (pos < text.size()) {
    if (text[pos] == '\\') {
      pos += 2;
      continue;
    }
    if (text[pos] == '"') return text.substr(start, pos++ - start);
    ++pos;
  }
  return std::nullopt;
}

void skip_space(std::string_view text, std::size_t& pos) {
  while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\n' || text[pos] == '\r')) ++pos;
}

}  // namespace

std::optional<std::string> leading_reply_id(std::string_view message) {
  const std::string_view text = message.substr(0, std::min(message.size(), oversize_reply_scan_bytes));
  int depth = 0;
  bool expecting_key = false;  // at depth 1, right after '{' or ','
  std::size_t pos = 0;
  while (pos < text.size()) {
    const char c = text[pos];
    if (c == '"') {
      const bool is_key = depth == 1 && expecting_key;
      auto s = read_string(text, pos);
      if (!s) return std::nullopt;
      expecting_key = false;
      if (!is_key || *s != "id") continue;
      skip_space(text, pos);
      if (pos >= text.size() || text[pos] != ':') return std::nullopt;
      ++pos;
      skip_space(text, pos);
      if (pos >= text.size() || text[pos] != '"') return std::nullopt;
      auto value = read_string(text, pos);
      if (!value || value->empty() || value->size() > max_id_length) return std::nullopt;
      return std::string(*value);
    }
    if (c == '{' || c == '[') {
      ++depth;
      expecting_key = c == '{' && depth == 1;
    } else if (c == '}' || c == ']') {
      if (--depth <= 0) return std::nullopt;
    } else if (c == ',') {
      expecting_key = depth == 1;
    }
    ++pos;
  }
  return std::nullopt;
}

}  // namespace opentabs::app
