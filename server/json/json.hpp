// The project's JSON vocabulary.  Messages are Boost.JSON values; this header is the one
// place that names Boost.JSON, so the rest of the code says json::value, json::object, ...
// Parsing is always bounded (size and nesting depth) and reports where the input broke.
#pragma once

#include <boost/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "util/result.hpp"

namespace opentabs::json {

using value = boost::json::value;
using object = boost::json::object;
using array = boost::json::array;
using string = boost::json::string;
using kind = boost::json::kind;

struct parse_limits {
  std::size_t max_bytes = 10 * 1024 * 1024;
  std::size_t max_depth = 64;
};

// Parses exactly one JSON text.  Errors (code "parse_error" or "too_large") say what broke
// and at which line/column/byte offset.
result<value> parse(std::string_view text, const parse_limits& limits = {});

// Memory for the values of one request that die with it: parse() into an arena puts a
// message of a few KiB in its inline buffer (more continues on the heap) and frees it all
// at once.  A value parsed into an arena must not outlive it: copies into values of the
// default storage (assignment to one, parse_tools_call's arguments, ...) are heap copies,
// but a copy *constructed* from an arena value lives in the arena too.
class arena {
 public:
  arena() : resource_(buffer_, sizeof buffer_) {}
  arena(const arena&) = delete;
  arena& operator=(const arena&) = delete;
  boost::json::storage_ptr storage() { return boost::json::storage_ptr(&resource_); }

 private:
  unsigned char buffer_[4096];
  boost::json::monotonic_resource resource_;
};
result<value> parse(std::string_view text, arena& memory, const parse_limits& limits = {});
// A copy of `v` in the default storage, to keep after the arena `v` lives in is gone.
inline value copy_out(const value& v) { return value(v, boost::json::storage_ptr()); }

// Like parse() but also requires the top level to be an object (code "not_object").
result<object> parse_object(std::string_view text, const parse_limits& limits = {});

// Compact serialisation (no whitespace, no embedded newlines).
std::string dump(const value& v);
std::string dump(const object& o);
// One string as a JSON string literal, quotes and escapes included, for messages that are
// assembled as text on hot paths.
std::string quote(std::string_view s);
// The same, appended to `out` without a temporary: exactly the bytes quote() and dump()
// write (control characters as \b \t \n \f \r or \u00xx, '"' and '\\' escaped, every other
// byte as it is).
void append_quoted(std::string& out, std::string_view s);
// dump(v) appended to `out`, for messages assembled as text around a value.
void append_dump(std::string& out, const value& v);
void append_dump(std::string& out, const object& o);
void append_dump(std::string& out, const array& a);

// Pretty serialisation with two-space indentation, for files people read and edit.
std::string dump_pretty(const value& v);

// Typed, non-throwing accessors.  They return nullptr / nullopt when the key is missing or
// has another type.
const value* find(const object& o, std::string_view key);
const string* get_string(const object& o, std::string_view key);
const object* get_object(const object& o, std::string_view key);
object* get_object(object& o, std::string_view key);
const array* get_array(const object& o, std::string_view key);
std::optional<bool> get_bool(const object& o, std::string_view key);
// Accepts integral JSON numbers and doubles that hold an exact integer.
std::optional<std::int64_t> get_int(const object& o, std::string_view key);
std::optional<double> get_number(const object& o, std::string_view key);

std::string_view type_name(const value& v);

// "text" for std::string_view values, used when building objects.
inline value str(std::string_view s) { return value(string(s)); }

}  // namespace opentabs::json
