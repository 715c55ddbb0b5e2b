// The HTTP/1.1 client of the CLI and the stdio bridge: one request per connection to the
// local opentabs server, on the caller's io_context, as a coroutine.  Every wait has a
// deadline (connect, each read and write, and the whole exchange), every size is bounded
// (http_response_parser), and failures come back as values with a code the caller can act
// on ("connect_failed" means nothing is listening).  Responses are either buffered whole
// (send) or handed over piece by piece as they arrive (stream, for SSE).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <list>
#include <string>
#include <string_view>

#include "net/asio.hpp"
#include "net/http_response.hpp"
#include "net/http_response_parser.hpp"
#include "util/result.hpp"

namespace opentabs::net {

struct http_client_options {
  std::chrono::milliseconds connect_timeout{5'000};
  // The longest silence tolerated while response bytes are due.
  std::chrono::milliseconds idle_timeout{30'000};
  // The whole exchange, from connect to the last body byte; zero means no overall limit
  // (long-lived event streams, which end when the caller cancels).
  std::chrono::milliseconds total_timeout{300'000};
  response_parse_limits limits;
};

struct http_client_request {
  std::string method = "GET";
  std::string target = "/";  // origin-form: "/tools?plugin=x"
  header_list headers;       // Host and Content-Length are added; Connection: close unless given
  std::string body;
};

struct http_client_response {
  response_head head;
  std::string body;

  int status() const { return head.status; }
  std::string_view header(std::string_view name) const { return head.header(name); }
};

// Serialises a request for `host:port` (exposed for tests).
std::string serialize_request(const http_client_request& req, std::string_view host, std::uint16_t port);

class http_client {
 public:
  http_client(asio::any_io_executor ex, std::string host, std::uint16_t port, http_client_options options = {});
  ~http_client();
  http_client(const http_client&) = delete;
  http_client& operator=(const http_client&) = delete;

  // One request; the whole response body is buffered.  Error codes: "connect_failed",
  // "timeout", "cancelled", "io", "bad_response", "too_large", "truncated".
  awaitable<result<http_client_response>> send(http_client_request req);

  // One request whose body is consumed while it arrives.  `on_head` sees the head first
  // and returns whether to read the body; `on_body` gets decoded body bytes and returns
  // whether to keep reading.  The returned head has an empty body.
  using head_handler = std::function<bool(const response_head&)>;
  using body_handler = std::function<awaitable<bool>(std::string)>;
  awaitable<result<response_head>> stream(http_client_request req, head_handler on_head, body_handler on_body);

  // Ends every exchange in flight: their coroutines complete with "cancelled".
  void cancel();

  const std::string& host() const { return host_; }
  std::uint16_t port() const { return port_; }
  const http_client_options& options() const { return options_; }

 private:
  struct exchange;
  awaitable<status> open(exchange& x, const http_client_request& req);
  awaitable<status> read_some(exchange& x);

  asio::any_io_executor ex_;
  std::string host_;
  std::uint16_t port_;
  http_client_options options_;
  std::list<exchange*> live_;
};

}  // namespace opentabs::net
