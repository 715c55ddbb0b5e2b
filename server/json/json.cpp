#include "json/json.hpp"
#include "json/validate.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace opentabs::json {
namespace {

// Line and column (both 1-based) of a byte offset, for error messages people can act on.
std::string position_of(std::string_view text, std::size_t offset) {
  std::size_t line = 1, col = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(col) + " (byte " + std::to_string(offset) + ")";
}

void pretty(std::string& out, const value& v, int indent);

// `open`, then each item on a line of its own one level deeper, then `close` on a line at
// `indent`; "{}" / "[]" when there are no items.  write_item(item) writes one item.
template <class Items, class WriteItem>
void pretty_container(std::string& out, const Items& items, char open, char close, int indent, WriteItem write_item) {
  out += open;
  bool first = true;
  for (const auto& item : items) {
    out += first ? "\n" : ",\n";
    first = false;
    out.append(static_cast<std::size_t>(indent + 1) * 2, ' ');
    write_item(item);
  }
  if (!first) {
    out += "\n";
    out.append(static_cast<std::size_t>(indent) * 2, ' ');
  }
  out += close;
}

void pretty(std::string& out, const value& v, int indent) {
  switch (v.kind()) {
    case kind::object:
      pretty_container(out, v.get_object(), '{', '}', indent, [&](const boost::json::key_value_pair& kv) {
        out += boost::json::serialize(value(string(kv.key())));
        out += ": ";
        pretty(out, kv.value(), indent + 1);
      });
      return;
    case kind::array:
      pretty_container(out, v.get_array(), '[', ']', indent, [&](const value& item) { pretty(out, item, indent + 1); });
      return;
    default:
      out += boost::json::serialize(v);
  }
}

// JSON has no Infinity/NaN, but Boost.JSON turns an overflowing literal such as 1e999 into
// infinity and would later write it back as a non-JSON token; such input is refused here.
bool has_non_finite(const value& v, int depth = 0) {
  if (depth > 512) return false;
  switch (v.kind()) {
    case kind::double_: return !std::isfinite(v.get_double());
    case kind::array:
      for (const auto& e : v.get_array())
        if (has_non_finite(e, depth + 1)) return true;
      return false;
    case kind::object:
      for (const auto& kv : v.get_object())
        if (has_non_finite(kv.value(), depth + 1)) return true;
      return false;
    default: return false;
  }
}

}  // namespace

namespace {

result<value> parse_into(std::string_view text, const parse_limits& limits, boost::json::storage_ptr storage) {
  if (text.size() > limits.max_bytes)
    return make_error(errc::too_large, "JSON text of " + std::to_string(text.size()) + " bytes exceeds the limit of " +
                                       std::to_string(limits.max_bytes) + " bytes");
  boost::json::parse_options opts;
  opts.max_depth = limits.max_depth;
  // The parser's own stack starts in `scratch` (no heap for ordinary nesting).
  unsigned char scratch[1024];
  boost::json::parser p(boost::json::storage_ptr(), opts, scratch, sizeof scratch);
  p.reset(std::move(storage));
  boost::system::error_code ec;
  std::size_t used = p.write_some(text.data(), text.size(), ec);
  if (!ec && used < text.size()) {
    // Trailing garbage after a complete value.
    return make_error(errc::parse_error, "unexpected data after the JSON value at " + position_of(text, used));
  }
  if (ec) {
    return make_error(errc::parse_error, "invalid JSON at " + position_of(text, used) + ": " + ec.message());
  }
  auto v = p.release();
  if (has_non_finite(v)) return make_error(errc::parse_error, "invalid JSON: a number is outside the range of a double");
  return v;
}

}  // namespace

result<value> parse(std::string_view text, const parse_limits& limits) { return parse_into(text, limits, {}); }

result<value> parse(std::string_view text, arena& memory, const parse_limits& limits) {
  return parse_into(text, limits, memory.storage());
}

status validate(std::string_view text, const parse_limits& limits) {
  // A message of a few KiB parses without touching the heap (the nodes in `nodes`); larger
  // ones continue on the heap.  The value dies here, before its arena.
  unsigned char nodes[8192];
  boost::json::monotonic_resource nodes_arena(nodes, sizeof nodes);
  auto v = parse_into(text, limits, boost::json::storage_ptr(&nodes_arena));
  if (!v) return v.err();
  return ok();
}

result<object> parse_object(std::string_view text, const parse_limits& limits) {
  auto v = parse(text, limits);
  if (!v) return v.err();
  if (!v->is_object()) return make_error(errc::invalid_request, "expected a JSON object, got " + std::string(type_name(*v)));
  return std::move(v->get_object());
}

std::string dump(const value& v) { return boost::json::serialize(v); }
std::string dump(const object& o) { return boost::json::serialize(o); }

std::string quote(std::string_view s) {
  std::string out;
  append_quoted(out, s);
  return out;
}

void append_quoted(std::string& out, std::string_view s) {
  // Boost.JSON's serializer's table: the two-character escapes it uses, 'u' for the other
  // control characters, 0 for bytes written as they are.
  static constexpr char esc[33] = "uuuuuuuubtnufruuuuuuuuuuuuuuuuuu";
  static constexpr char hex[] = "0123456789abcdef";
  // Eight bytes at a time while none of them needs escaping (a control character, '"' or
  // '\\'), then byte by byte.
  constexpr std::uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
  const auto clean_word = [&](std::size_t at) {
    std::uint64_t x;
    std::memcpy(&x, s.data() + at, 8);
    const std::uint64_t quotes = x ^ (ones * '"'), backslashes = x ^ (ones * '\\');
    return ((((x - ones * 0x20) & ~x) | ((quotes - ones) & ~quotes) | ((backslashes - ones) & ~backslashes)) & highs) == 0;
  };
  const auto clean_byte = [](unsigned char c) { return c >= 0x20 && c != '"' && c != '\\'; };
  std::size_t i = 0;
  while (i + 8 <= s.size() && clean_word(i)) i += 8;
  while (i < s.size() && clean_byte(static_cast<unsigned char>(s[i]))) ++i;
  if (i == s.size()) {
    // Nothing to escape (names, ids, timestamps): one copy.
    const std::size_t at = out.size();
    out.resize(at + s.size() + 2);
    char* p = out.data() + at;
    *p = '"';
    if (!s.empty()) std::memcpy(p + 1, s.data(), s.size());
    p[s.size() + 1] = '"';
    return;
  }
  out += '"';
  std::size_t run = 0;  // start of the bytes not yet copied
  for (;;) {
    while (i + 8 <= s.size() && clean_word(i)) i += 8;
    if (i >= s.size()) break;
    const auto c = static_cast<unsigned char>(s[i++]);
    if (clean_byte(c)) continue;
    out.append(s.data() + run, i - 1 - run);
    run = i;
    out += '\\';
    if (c == '"' || c == '\\') {
      out += static_cast<char>(c);
    } else if (esc[c] != 'u') {
      out += esc[c];
    } else {
      out += "u00";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  out.append(s.data() + run, s.size() - run);
  out += '"';
}

namespace {

// Drains a serializer into `out` through a stack buffer (no temporary string).
void drain(std::string& out, boost::json::serializer& sr) {
  char buf[4096];
  while (!sr.done()) {
    auto sv = sr.read(buf, sizeof buf);
    out.append(sv.data(), sv.size());
  }
}

}  // namespace

void append_dump(std::string& out, const value& v) {
  // Integers (request ids, most of all) as the serializer writes them: plain decimal.
  if (v.is_int64() || v.is_uint64()) {
    char buf[24];
    auto r = v.is_int64() ? std::to_chars(buf, buf + sizeof buf, v.get_int64()) : std::to_chars(buf, buf + sizeof buf, v.get_uint64());
    out.append(buf, r.ptr);
    return;
  }
  if (v.is_string()) {
    append_quoted(out, v.get_string());
    return;
  }
  boost::json::serializer sr;
  sr.reset(&v);
  drain(out, sr);
}

void append_dump(std::string& out, const object& o) {
  boost::json::serializer sr;
  sr.reset(&o);
  drain(out, sr);
}

void append_dump(std::string& out, const array& a) {
  boost::json::serializer sr;
  sr.reset(&a);
  drain(out, sr);
}

std::string dump_pretty(const value& v) {
  std::string out;
  pretty(out, v, 0);
  out += "\n";
  return out;
}

const value* find(const object& o, std::string_view key) { return o.if_contains(key); }

const string* get_string(const object& o, std::string_view key) {
  auto* v = o.if_contains(key);
  return v ? v->if_string() : nullptr;
}

const object* get_object(const object& o, std::string_view key) {
  auto* v = o.if_contains(key);
  return v ? v->if_object() : nullptr;
}

object* get_object(object& o, std::string_view key) {
  auto* v = o.if_contains(key);
  return v ? v->if_object() : nullptr;
}

const array* get_array(const object& o, std::string_view key) {
  auto* v = o.if_contains(key);
  return v ? v->if_array() : nullptr;
}

std::optional<bool> get_bool(const object& o, std::string_view key) {
  auto* v = o.if_contains(key);
  if (v && v->is_bool()) return v->get_bool();
  return std::nullopt;
}

std::optional<std::int64_t> get_int(const object& o, std::string_view key) {
  auto* v = o.if_contains(key);
  if (!v) return std::nullopt;
  if (v->is_int64()) return v->get_int64();
  if (v->is_uint64() && v->get_uint64() <= static_cast<std::uint64_t>(INT64_MAX))
    return static_cast<std::int64_t>(v->get_uint64());
  if (v->is_double()) {
    double d = v->get_double();
    if (std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 9.007199254740992e15)
      return static_cast<std::int64_t>(d);
  }
  return std::nullopt;
}

std::optional<double> get_number(const object& o, std::string_view key) {
  auto* v = o.if_contains(key);
  if (!v) return std::nullopt;
  if (v->is_double()) return v->get_double();
  if (v->is_int64()) return static_cast<double>(v->get_int64());
  if (v->is_uint64()) return static_cast<double>(v->get_uint64());
  return std::nullopt;
}

std::string_view type_name(const value& v) {
  switch (v.kind()) {
    case kind::null: return "null";
    case kind::bool_: return "boolean";
    case kind::int64:
    case kind::uint64:
    case kind::double_: return "number";
    case kind::string: return "string";
    case kind::array: return "array";
    case kind::object: return "object";
  }
  return "unknown";
}

}  // namespace opentabs::json
