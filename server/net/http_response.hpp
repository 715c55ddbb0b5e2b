// An HTTP response to send, and the serialisation of response heads (complete, chunked
// for streams such as SSE, or raw for the 101 upgrade).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json/json.hpp"
#include "util/errc.hpp"

namespace opentabs::net {

using header_list = std::vector<std::pair<std::string, std::string>>;

struct http_response {
  int status = 200;
  header_list headers;
  std::string body;

  http_response& with_header(std::string name, std::string value) {
    headers.emplace_back(std::move(name), std::move(value));
    return *this;
  }
  std::string_view header(std::string_view name) const;

  // application/json body.
  static http_response json(int status, const json::value& body);
  // {"error": code, "error_description": description} — the error shape of the REST routes.
  static http_response error(int status, std::string_view code, std::string_view description);
  static http_response empty(int status);
};

std::string_view status_text(int status);

// The HTTP status of an error category: the one mapping from errc for HTTP callers (REST
// routes, tool results over REST, WebSocket handshakes).  unsupported is 426: what this
// server does not support is a protocol version (WebSocket 13 only).
int http_status_for(errc e);

// A complete response: status line, headers, Content-Length, Connection, body.
std::string serialize(const http_response& res, bool keep_alive);
// The status line and headers of `res` alone (Content-Length included), for bodies large
// enough to be queued separately rather than copied behind their head.
std::string serialize_head(const http_response& res, bool keep_alive);
// The same for a body of `body_size` bytes queued apart from `res` (whose body is ignored).
std::string serialize_head(const http_response& res, bool keep_alive, std::size_t body_size);
// The head of a chunked streamed response (Transfer-Encoding: chunked).
// `spare_capacity`: room reserved behind the head for a first chunk appended to it.
std::string serialize_stream_head(int status, const header_list& headers, bool keep_alive,
                                  std::size_t spare_capacity = 0);
// One chunk of a chunked body, and the terminating chunk.
std::string encode_chunk(std::string_view data);
// The same chunk appended to `out` (no string of its own).
void append_chunk(std::string& out, std::string_view data);
std::string_view last_chunk();

}  // namespace opentabs::net
