// The coroutine HTTP/1.1 client (see http_client.hpp).  Each operation races its deadline
// with the `||` operator; both branches report errors as values so the first to finish
// wins (a throwing branch would not end the race, see style anchors §0).
#include "net/http_client.hpp"

#include <algorithm>

#include "util/strings.hpp"

namespace opentabs::net {

using namespace asio::experimental::awaitable_operators;

// One request in flight.  It is listed in `live` (where cancel() finds it) for its lifetime.
struct http_client::exchange {
  exchange(asio::any_io_executor ex, const response_parse_limits& limits, std::list<exchange*>& live)
      : socket(ex), timer(ex), parser(limits), live_(live) {
    live_.push_back(this);
  }
  ~exchange() { live_.remove(this); }
  exchange(const exchange&) = delete;
  exchange& operator=(const exchange&) = delete;

  tcp::socket socket;
  asio::steady_timer timer;
  steady_clock::time_point overall = steady_clock::time_point::max();
  http_response_parser parser;
  bool cancelled = false;
  bool eof = false;
  char buf[16 * 1024];

 private:
  std::list<exchange*>& live_;
};

namespace {

error io_error(const char* what, const std::error_code& ec) {
  return make_error("io", std::string(what) + ": " + ec.message());
}

}  // namespace

std::string serialize_request(const http_client_request& req, std::string_view host, std::uint16_t port) {
  std::string out;
  out.reserve(256 + req.body.size());
  out.append(req.method).append(" ").append(req.target).append(" HTTP/1.1\r\n");
  out.append("Host: ").append(host).append(":").append(std::to_string(port)).append("\r\n");
  bool connection_given = false;
  for (const auto& [k, v] : req.headers) {
    if (iequals(k, "Host") || iequals(k, "Content-Length")) continue;
    if (iequals(k, "Connection")) connection_given = true;  // e.g. "Upgrade" for a WebSocket probe
    out.append(k).append(": ").append(v).append("\r\n");
  }
  if (!req.body.empty() || req.method == "POST" || req.method == "PUT" || req.method == "PATCH")
    out.append("Content-Length: ").append(std::to_string(req.body.size())).append("\r\n");
  if (!connection_given) out.append("Connection: close\r\n");
  out.append("\r\n");
  out.append(req.body);
  return out;
}

http_client::http_client(asio::any_io_executor ex, std::string host, std::uint16_t port, http_client_options options)
    : ex_(std::move(ex)), host_(std::move(host)), port_(port), options_(options) {}

http_client::~http_client() { cancel(); }

void http_client::cancel() {
  for (auto* x : live_) {
    x->cancelled = true;
    std::error_code ignored;
    x->socket.close(ignored);
    x->timer.cancel();
  }
}

awaitable<status> http_client::open(exchange& x, const http_client_request& req) {
  std::error_code ec;
  auto address = asio::ip::make_address(host_ == "localhost" ? std::string("127.0.0.1") : host_, ec);
  if (ec) co_return make_error("connect_failed", "not an IP address: " + host_);
  if (options_.total_timeout.count() > 0) x.overall = steady_clock::now() + options_.total_timeout;

  x.timer.expires_at(std::min(x.overall, steady_clock::now() + options_.connect_timeout));
  auto connected = co_await (x.socket.async_connect(tcp::endpoint(address, port_), as_value) || x.timer.async_wait(as_value));
  if (x.cancelled) co_return make_error("cancelled", "request cancelled");
  if (connected.index() == 1)
    co_return make_error("timeout", "no connection to " + host_ + ":" + std::to_string(port_) + " within " +
                                        std::to_string(options_.connect_timeout.count()) + " ms");
  if (auto [cec] = std::get<0>(connected); cec)
    co_return make_error("connect_failed", "cannot connect to " + host_ + ":" + std::to_string(port_) + ": " + cec.message());

  std::string bytes = serialize_request(req, host_, port_);
  x.timer.expires_at(std::min(x.overall, steady_clock::now() + options_.idle_timeout));
  auto written = co_await (asio::async_write(x.socket, asio::buffer(bytes), as_value) || x.timer.async_wait(as_value));
  if (x.cancelled) co_return make_error("cancelled", "request cancelled");
  if (written.index() == 1) co_return make_error("timeout", "sending the request timed out");
  if (auto [wec, n] = std::get<0>(written); wec) co_return io_error("sending the request failed", wec);
  co_return ok();
}

awaitable<status> http_client::read_some(exchange& x) {
  auto deadline = std::min(x.overall, steady_clock::now() + options_.idle_timeout);
  x.timer.expires_at(deadline);
  auto got = co_await (x.socket.async_read_some(asio::buffer(x.buf), as_value) || x.timer.async_wait(as_value));
  if (x.cancelled) co_return make_error("cancelled", "request cancelled");
  if (got.index() == 1) {
    bool overall = deadline == x.overall;
    co_return make_error("timeout", overall ? "the response did not complete within " +
                                                  std::to_string(options_.total_timeout.count()) + " ms"
                                            : "no response bytes for " + std::to_string(options_.idle_timeout.count()) + " ms");
  }
  auto [ec, n] = std::get<0>(got);
  if (ec == asio::error::eof) {
    x.eof = true;
    co_return x.parser.finish();
  }
  if (ec) co_return io_error("reading the response failed", ec);
  co_return x.parser.feed(std::string_view(x.buf, n));
}

awaitable<result<http_client_response>> http_client::send(http_client_request req) {
  exchange x(ex_, options_.limits, live_);
  if (req.method == "HEAD") x.parser.expect_no_body();

  if (auto st = co_await open(x, req); !st) co_return st.err();
  // Loops leave with break, never co_return (GCC 12 mis-compiles some co_returns and
  // negated co_awaits inside coroutine loops).
  http_client_response res;
  status failure = ok();
  while (!x.parser.done()) {
    auto st = co_await read_some(x);
    if (!st) {
      failure = st;
      break;
    }
    res.body += x.parser.take_body();
    if (x.eof && !x.parser.done()) {
      failure = make_error("truncated", "connection closed early");
      break;
    }
  }
  if (!failure) co_return failure.err();
  res.head = x.parser.head();
  co_return res;
}

awaitable<result<response_head>> http_client::stream(http_client_request req, head_handler on_head,
                                                     body_handler on_body) {
  exchange x(ex_, options_.limits, live_);

  if (auto st = co_await open(x, req); !st) co_return st.err();
  bool head_seen = false;
  status failure = ok();
  while (true) {
    auto st = co_await read_some(x);
    if (!st) {
      failure = st;
      break;
    }
    if (!head_seen && x.parser.head_complete()) {
      head_seen = true;
      if (!on_head(x.parser.head())) break;
    }
    if (head_seen) {
      std::string piece = x.parser.take_body();
      if (!piece.empty()) {
        bool more = co_await on_body(std::move(piece));  // awaited outside the condition: GCC 12
        if (!more) break;
      }
    }
    if (x.parser.done()) break;
    if (x.eof) {
      failure = make_error("truncated", "connection closed early");
      break;
    }
  }
  if (!failure) co_return failure.err();
  co_return x.parser.head();
}

}  // namespace opentabs::net
