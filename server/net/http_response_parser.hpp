// The incremental parser for HTTP/1.1 responses the CLI and the stdio bridge receive.
// Sans-I/O: the client coroutine feeds bytes as they arrive; the parser decodes the head
// and the body (Content-Length, chunked, or until the peer closes) and hands decoded body
// bytes out as they become available, so an SSE stream can be consumed while it is open.
// Every size is bounded: a peer cannot make us buffer more than the limits allow.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/result.hpp"

namespace opentabs::net {

struct response_head {
  int status = 0;
  std::string reason;
  std::vector<std::pair<std::string, std::string>> headers;  // names as sent

  // Case-insensitive lookup of the first header with that name; empty when absent.
  std::string_view header(std::string_view name) const;
  bool has_header(std::string_view name) const;
};

struct response_parse_limits {
  std::size_t max_head_bytes = 64 * 1024;
  std::size_t max_body_bytes = 64 * 1024 * 1024;
};

class http_response_parser {
 public:
  enum class state { head, body, done };

  explicit http_response_parser(response_parse_limits limits = {});

  // Tells the parser the response answers a HEAD request (no body whatever the headers say).
  void expect_no_body() { no_body_ = true; }

  // Consumes all of `bytes`.  Errors (code "bad_response" or "too_large") say what was
  // wrong; after an error the parser must not be fed again.
  status feed(std::string_view bytes);
  // The peer closed the connection: completes a body delimited by the close, and is an
  // error ("truncated") for any other unfinished response.
  status finish();

  state current() const { return state_; }
  bool head_complete() const { return state_ != state::head; }
  bool done() const { return state_ == state::done; }
  const response_head& head() const { return head_; }

  // Decoded body bytes received since the last call.
  std::string take_body();
  // Total decoded body bytes so far.
  std::size_t body_size() const { return body_total_; }

 private:
  enum class body_mode { none, length, chunked, until_close };
  enum class chunk_state { size_line, data, data_crlf, trailers };

  status parse_head();
  status start_body();
  status parse_chunked();
  status append_body(std::string_view data);

  response_parse_limits limits_;
  state state_ = state::head;
  body_mode mode_ = body_mode::none;
  chunk_state chunk_ = chunk_state::size_line;
  bool no_body_ = false;
  response_head head_;
  std::string buffer_;  // undecoded bytes (head, chunk framing)
  std::string body_;    // decoded, not yet taken
  std::uint64_t remaining_ = 0;
  std::size_t body_total_ = 0;
};

}  // namespace opentabs::net
