// The HTTP/1.1 client of the CLI and the stdio bridge: one request per connection to the
// local opentabs server, on the caller's io_context, as a coroutine (or, with
// reuse_connections, requests over kept-alive connections).  Every wait has a
// deadline (connect, each read and write, and the whole exchange), every size is bounded
// (http_response_parser), and failures come back as values with a code the caller can act
// on ("connect_failed" means nothing is listening).  Responses are either buffered whole
// (send) or handed over piece by piece as they arrive (stream, for SSE).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "net/asio.hpp"
#include "net/deadline_set.hpp"
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
  // Keep connections open (HTTP/1.1 keep-alive) and send later requests over them: the
  // stdio bridge relays every message as a POST, and a connect/accept/close per message
  // was most of its CPU and a good part of the server's.  A kept connection is used only
  // while younger than reuse_idle_limit (well inside the server's 60 s keep-alive) and not
  // already closed by the server; if it fails before any response byte arrives, the request
  // goes once more over a new connection (the server never saw it).
  bool reuse_connections = false;
  std::size_t max_idle_connections = 16;
  std::chrono::milliseconds reuse_idle_limit{20'000};
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

// Serialises a request for `host:port` (exposed for tests); "Connection: close" unless the
// request names its own Connection header or `keep_alive`.
std::string serialize_request(const http_client_request& req, std::string_view host, std::uint16_t port,
                              bool keep_alive = false);

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

  // Ends every exchange in flight: their coroutines complete with "cancelled"; kept
  // connections are closed.
  void cancel();
  // Kept-alive connections waiting for a request (reuse_connections).
  std::size_t idle_connections() const { return idle_.size(); }

  const std::string& host() const { return host_; }
  std::uint16_t port() const { return port_; }
  const http_client_options& options() const { return options_; }

 private:
  struct exchange;
  struct idle_connection {
    tcp::socket socket;
    steady_clock::time_point since;
  };
  awaitable<status> open(exchange& x, const http_client_request& req, bool allow_reuse);
  awaitable<status> connect(exchange& x);
  awaitable<status> write_request(exchange& x, const std::string& bytes);
  awaitable<status> read_some(exchange& x);
  awaitable<status> read_whole(exchange& x, std::string& body);
  bool take_idle(exchange& x);
  void keep(exchange& x);
  void reset_for_retry(exchange& x, bool head_request);
  bool should_retry(const exchange& x, const status& st) const;

  asio::any_io_executor ex_;
  std::string host_;
  std::uint16_t port_;
  http_client_options options_;
  deadline_set deadlines_;  // every exchange's connect, read and write deadline, on one timer
  std::vector<exchange*> live_;
  std::vector<std::unique_ptr<char[]>> spare_buffers_;  // read buffers of finished exchanges
  std::vector<idle_connection> idle_;
};

}  // namespace opentabs::net
