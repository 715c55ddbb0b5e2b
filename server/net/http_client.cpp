// The coroutine HTTP/1.1 client (see http_client.hpp).  Each wait (connect, read, write)
// sets the exchange's deadline in the client's deadline_set and clears it after; a deadline
// that passes cancels the exchange's socket, which ends the wait with operation_aborted.
#include "net/http_client.hpp"


#include <algorithm>

#include "net/net_failure.hpp"
#include "util/strings.hpp"

namespace opentabs::net {

// One request in flight.  It is listed in the client's `live_` (where cancel() finds it)
// for its lifetime, and reads into one of the client's spare buffers: as a member, 16 KiB
// would make every exchange's coroutine frame a large allocation (malloc's slow path).
struct http_client::exchange {
  explicit exchange(http_client& client)
      : socket(client.ex_),
        watch(client.deadlines_, [this] { expire(); }),
        parser(client.options_.limits),
        client_(client) {
    client_.live_.push_back(this);
    if (client_.spare_buffers_.empty()) {
      buf = std::make_unique<char[]>(buf_size);
    } else {
      buf = std::move(client_.spare_buffers_.back());
      client_.spare_buffers_.pop_back();
    }
  }
  ~exchange() {
    std::erase(client_.live_, this);
    client_.spare_buffers_.push_back(std::move(buf));
  }
  exchange(const exchange&) = delete;
  exchange& operator=(const exchange&) = delete;

  tcp::socket socket;
  deadline_set::entry watch;
  steady_clock::time_point overall = steady_clock::time_point::max();
  http_response_parser parser;
  bool cancelled = false;
  bool eof = false;
  bool reused = false;     // sent over a kept-alive connection
  bool got_bytes = false;  // some of the response arrived
  static constexpr std::size_t buf_size = 16 * 1024;
  std::unique_ptr<char[]> buf;

  // Around each wait: the deadline (never later than the whole exchange's), then whether
  // it ended the wait (the operation completed with operation_aborted).
  void wait_until(steady_clock::time_point t) { watch.expire_at(std::min(overall, t)); }
  bool timed_out(const std::error_code& ec) {
    const bool expired = watch.expired();
    watch.clear();
    return expired && ec == asio::error::operation_aborted;
  }

 private:
  void expire() {
    std::error_code ignored;
    socket.cancel(ignored);
  }

  http_client& client_;
};

namespace {

error io_error(const char* what, const std::error_code& ec) {
  return make_error(errc::io, std::string(what) + ": " + ec.message());
}

// A kept connection that failed before any response byte: the server closed it between
// requests (it never saw this one), so the request is sent again on a new connection.
bool retry_on_new_connection(const error& e) { return !e.is(net_failure::cancelled) && !e.is(errc::timeout); }

}  // namespace

std::string serialize_request(const http_client_request& req, std::string_view host, std::uint16_t port,
                              bool keep_alive) {
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
  if (!connection_given) out.append(keep_alive ? "Connection: keep-alive\r\n" : "Connection: close\r\n");
  out.append("\r\n");
  out.append(req.body);
  return out;
}

http_client::http_client(asio::any_io_executor ex, std::string host, std::uint16_t port, http_client_options options)
    : ex_(std::move(ex)), host_(std::move(host)), port_(port), options_(options), deadlines_(ex_) {}

http_client::~http_client() { cancel(); }

void http_client::cancel() {
  for (auto* x : live_) {
    x->cancelled = true;
    std::error_code ignored;
    x->socket.close(ignored);
  }
  idle_.clear();  // (closes them)
}

bool http_client::take_idle(exchange& x) {
  const auto now = steady_clock::now();
  std::erase_if(idle_, [&](const idle_connection& c) { return now - c.since > options_.reuse_idle_limit; });
  if (idle_.empty()) return false;
  // Not probed for a FIN first (a recv per request): a connection the server has closed
  // fails the request before any response byte, and that goes once more on a new one.
  x.socket = std::move(idle_.back().socket);
  idle_.pop_back();
  x.reused = true;
  return true;
}

void http_client::keep(exchange& x) {
  if (!options_.reuse_connections || x.cancelled || x.eof || !x.parser.done() || !x.socket.is_open()) return;
  if (iequals(trim(x.parser.head().header("Connection")), "close")) return;
  if (idle_.size() >= options_.max_idle_connections) return;
  idle_.push_back(idle_connection{std::move(x.socket), steady_clock::now()});
}

awaitable<status> http_client::open(exchange& x, const http_client_request& req, bool allow_reuse) {
  if (options_.total_timeout.count() > 0 && x.overall == steady_clock::time_point::max())
    x.overall = steady_clock::now() + options_.total_timeout;
  std::string bytes = serialize_request(req, host_, port_, options_.reuse_connections);
  if (options_.reuse_connections && allow_reuse && take_idle(x)) {
    auto st = co_await write_request(x, bytes);
    if (st || x.cancelled || !retry_on_new_connection(st.err())) co_return st;
    std::error_code ignored;
    x.socket.close(ignored);
    x.reused = false;
  }
  if (auto st = co_await connect(x); !st) co_return st;
  co_return co_await write_request(x, bytes);
}

awaitable<status> http_client::connect(exchange& x) {
  std::error_code ec;
  auto address = asio::ip::make_address(host_ == "localhost" ? std::string("127.0.0.1") : host_, ec);
  if (ec) co_return make_error(net_failure::connect_failed, "not an IP address: " + host_);
  x.wait_until(steady_clock::now() + options_.connect_timeout);
  auto [cec] = co_await x.socket.async_connect(tcp::endpoint(address, port_), as_value);
  const bool timed_out = x.timed_out(cec);
  if (x.cancelled) co_return make_error(net_failure::cancelled, "request cancelled");
  if (timed_out)
    co_return make_error(errc::timeout, "no connection to " + host_ + ":" + std::to_string(port_) + " within " +
                                        std::to_string(options_.connect_timeout.count()) + " ms");
  if (cec)
    co_return make_error(net_failure::connect_failed, "cannot connect to " + host_ + ":" + std::to_string(port_) + ": " + cec.message());
  co_return ok();
}

awaitable<status> http_client::write_request(exchange& x, const std::string& bytes) {
  // A request to the local server almost always fits the socket buffer: write it at once,
  // without a wait to guard; only what does not fit goes through the timed write.
  std::error_code ec;
  if (!x.socket.non_blocking()) x.socket.non_blocking(true, ec);  // once per connection
  std::size_t done = ec ? 0 : x.socket.write_some(asio::buffer(bytes), ec);
  if (ec && ec != asio::error::would_block && ec != asio::error::try_again)
    co_return io_error("sending the request failed", ec);
  if (done == bytes.size()) co_return ok();
  x.wait_until(steady_clock::now() + options_.idle_timeout);
  auto [wec, n] = co_await asio::async_write(x.socket, asio::buffer(bytes.data() + done, bytes.size() - done), as_value);
  const bool timed_out = x.timed_out(wec);
  if (x.cancelled) co_return make_error(net_failure::cancelled, "request cancelled");
  if (timed_out) co_return make_error(errc::timeout, "sending the request timed out");
  if (wec) co_return io_error("sending the request failed", wec);
  co_return ok();
}

awaitable<status> http_client::read_some(exchange& x) {
  x.wait_until(steady_clock::now() + options_.idle_timeout);
  const bool overall = x.watch.deadline() == x.overall;
  auto [ec, n] = co_await x.socket.async_read_some(asio::buffer(x.buf.get(), exchange::buf_size), as_value);
  const bool timed_out = x.timed_out(ec);
  if (x.cancelled) co_return make_error(net_failure::cancelled, "request cancelled");
  if (timed_out) {
    co_return make_error(errc::timeout, overall ? "the response did not complete within " +
                                                  std::to_string(options_.total_timeout.count()) + " ms"
                                            : "no response bytes for " + std::to_string(options_.idle_timeout.count()) + " ms");
  }
  if (n > 0) x.got_bytes = true;
  if (ec == asio::error::eof) {
    x.eof = true;
    co_return x.parser.finish();
  }
  if (ec) co_return io_error("reading the response failed", ec);
  co_return x.parser.feed(std::string_view(x.buf.get(), n));
}

void http_client::reset_for_retry(exchange& x, bool head_request) {
  std::error_code ignored;
  x.socket.close(ignored);
  x.parser = http_response_parser(options_.limits);
  if (head_request) x.parser.expect_no_body();
  x.eof = false;
  x.got_bytes = false;
  x.reused = false;
}

bool http_client::should_retry(const exchange& x, const status& st) const {
  return !st && x.reused && !x.got_bytes && !x.cancelled && retry_on_new_connection(st.err());
}

awaitable<status> http_client::read_whole(exchange& x, std::string& body) {
  // Loops leave with break, never co_return (GCC 12: net/asio.hpp).
  status failure = ok();
  while (!x.parser.done()) {
    auto st = co_await read_some(x);
    if (!st) {
      failure = st;
      break;
    }
    body += x.parser.take_body();
    if (x.eof && !x.parser.done()) {
      failure = make_error(net_failure::truncated, "connection closed early");
      break;
    }
  }
  co_return failure;
}

awaitable<result<http_client_response>> http_client::send(http_client_request req) {
  exchange x(*this);
  const bool head_request = req.method == "HEAD";
  if (head_request) x.parser.expect_no_body();

  http_client_response res;
  status failure = ok();
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (attempt > 0) reset_for_retry(x, head_request);
    failure = co_await open(x, req, /*allow_reuse=*/attempt == 0);
    if (failure) failure = co_await read_whole(x, res.body);
    if (!should_retry(x, failure)) break;
    res.body.clear();
  }
  if (!failure) co_return failure.err();
  res.head = x.parser.head();
  keep(x);
  co_return res;
}

awaitable<result<response_head>> http_client::stream(http_client_request req, head_handler on_head,
                                                     body_handler on_body) {
  exchange x(*this);

  status failure = ok();
  bool head_seen = false;
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (attempt > 0) reset_for_retry(x, false);
    failure = co_await open(x, req, /*allow_reuse=*/attempt == 0);
    if (!should_retry(x, failure)) break;
  }
  if (!failure) co_return failure.err();
  while (true) {
    auto st = co_await read_some(x);
    if (!st && !head_seen && should_retry(x, st)) {
      // The kept connection was closed under the request: once more on a new one.
      reset_for_retry(x, false);
      st = co_await open(x, req, /*allow_reuse=*/false);
      if (st) continue;
    }
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
        bool more = co_await on_body(std::move(piece));  // GCC 12: net/asio.hpp
        if (!more) break;
      }
    }
    if (x.parser.done()) break;
    if (x.eof) {
      failure = make_error(net_failure::truncated, "connection closed early");
      break;
    }
  }
  if (!failure) co_return failure.err();
  keep(x);
  co_return x.parser.head();
}

}  // namespace opentabs::net
