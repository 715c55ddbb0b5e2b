// An HTTP/1.1 request as the rest of the server sees it, and the incremental parser that
// produces it from bytes.  The parser is sans-I/O: the connection coroutine reads from the
// socket and feeds bytes; the parser says "need more", "done" or "reject with status N".
// websocketpp's HTTP parser does the work behind this interface (see ws_codec.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace opentabs::codec {

struct http_request {
  std::string method;   // "GET", "POST", ...
  std::string target;   // as sent: "/tools?plugin=x"
  std::string path;     // "/tools" (percent-decoding is the router's business)
  std::string query;    // "plugin=x" (without '?')
  std::string version;  // "HTTP/1.1"
  std::string body;

  // Case-insensitive header lookup; empty when absent.  A field sent more than once has
  // its values joined with ", " (as websocketpp's parser joins them).
  std::string_view header(std::string_view name) const;
  bool has_header(std::string_view name) const;
  // Adds a field (the name is stored lowercased); the parser adds each distinct name once.
  void add_header(std::string_view name, std::string_view value);
  // The fields in the order they were added: (lowercased name, value).
  std::size_t header_count() const { return fields_.size(); }
  std::pair<std::string_view, std::string_view> header_at(std::size_t i) const;
  // Value of one query parameter, percent-decoded; empty when absent.
  std::string query_param(std::string_view name) const;
  bool has_query_param(std::string_view name) const;
  // HTTP/1.1 keep-alive unless "Connection: close" (HTTP/1.0: only with keep-alive).
  bool keep_alive() const;

 private:
  // Every header name and value lives in one string, so that a request's headers cost two
  // allocations (this and fields_), not two per field.  Offsets, not views: the request
  // is moved (and may be copied).
  struct field {
    std::uint64_t name_key;  // name_prefix_key(name)
    std::uint32_t name_at, name_size, value_at, value_size;
  };
  static std::uint64_t name_prefix_key(std::string_view name) noexcept;
  const field* find_field(std::string_view name) const noexcept;
  std::string header_bytes_;
  std::vector<field> fields_;

  friend class request_parser;  // reserves both once per head
};

struct parse_limits {
  std::size_t max_body_bytes = 10 * 1024 * 1024;
};

class request_parser {
 public:
  enum class state { need_more, done, rejected };

  explicit request_parser(parse_limits limits = {});
  ~request_parser();
  request_parser(request_parser&&) noexcept;
  request_parser& operator=(request_parser&&) noexcept;

  // Feeds bytes; returns how many were consumed.  Bytes after a complete request are not
  // consumed: they belong to the next request (or, after an upgrade, to WebSocket frames).
  // A call never consumes past the end of the head when a body follows: the caller sees
  // head_complete() and can screen head() (auth, route, length) before any body byte is
  // taken, then feeds again for the body.
  std::size_t feed(const char* data, std::size_t size);

  state current() const { return state_; }
  // When rejected: the HTTP status to answer with (400, 411, 413, 431, 505) and why.
  int reject_status() const { return reject_status_; }
  const std::string& reject_reason() const { return reject_reason_; }
  // Whether the head (through its blank line) has been received and passed the framing
  // checks; the body may still be arriving.
  bool head_complete() const { return head_complete_; }
  // The request line and headers, with an empty body; valid once head_complete().
  const http_request& head() const { return head_; }
  // Content-Length of the request (0 without one); valid once head_complete().
  std::size_t announced_body_bytes() const { return announced_body_bytes_; }

  // Takes the finished request; the parser must be reset() before the next one.
  http_request take();
  void reset();

 private:
  bool check_head();  // framing checks once the head is in; false (rejected) on failure
  void capture_head();  // copies the request line and headers out of websocketpp's request
  std::size_t take_body(const char* data, std::size_t size);
  // False on whitespace before a field's colon or an obs-fold line (RFC 9112 §5.1–5.2).
  bool field_lines_ok(const char* data, std::size_t size) noexcept;

  struct impl;
  std::unique_ptr<impl> impl_;
  parse_limits limits_;
  state state_ = state::need_more;
  bool head_complete_ = false;
  int head_end_match_ = 0;  // how much of "\r\n\r\n" the last bytes fed have matched
  enum class line_part { request_line, line_start, name, value };
  line_part line_ = line_part::request_line;  // where field_lines_ok stopped in the head
  std::size_t announced_body_bytes_ = 0;
  int reject_status_ = 0;
  std::string reject_reason_;
  // Built once when the head completes (the screen and take() share it); the body is
  // appended to it by Content-Length here, not by websocketpp (which would copy it twice).
  http_request head_;
};

std::string percent_decode(std::string_view s);

}  // namespace opentabs::codec
