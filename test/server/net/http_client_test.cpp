// The coroutine HTTP client against the real http_server over loopback (buffered bodies,
// chunked SSE streams consumed while open) and against raw sockets that misbehave (never
// answer, close early, nothing listening).  Each test runs its own io_context with a hard
// cap (run_for) so a bug cannot hang the suite.
#include <doctest/doctest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "net/http_client.hpp"
#include "net/http_server.hpp"
#include "net/net_failure.hpp"
#include "net/sse_parser.hpp"
#include "test/server/net/handler_service.hpp"

using namespace opentabs;
using namespace opentabs::net;
using namespace std::chrono_literals;

namespace {

awaitable<void> handler(http_exchange& ex) {
  const auto& req = ex.request();
  if (req.path == "/sse") {
    ex.start_stream(200, {{"Content-Type", "text/event-stream"}});
    ex.send_chunk("event: message\ndata: {\"n\":1}\n\n");
    asio::steady_timer t(co_await asio::this_coro::executor);
    t.expires_after(20ms);
    co_await t.async_wait(as_value);
    ex.send_chunk("event: message\ndata: {\"n\":2}\n\n");
    ex.end_stream();
    co_return;
  }
  json::object o{{"method", json::str(req.method)},
                 {"path", json::str(req.path)},
                 {"body", json::str(req.body)},
                 {"auth", json::str(req.header("Authorization"))},
                 {"peer", ex.remote_endpoint().port()}};  // which connection carried it
  ex.respond(http_response::json(req.path == "/missing" ? 404 : 200, o).with_header("x-opentabs-version", "9.9.9"));
}

struct server_fixture {
  asio::io_context io{1};
  limits lim;
  net::testing::handler_service service;
  http_server server{io, lim, service};
  std::uint16_t port = 0;
  server_fixture() {
    service.handler = handler;
    auto p = server.listen("127.0.0.1", 0);
    REQUIRE(p.ok());
    port = *p;
    asio::co_spawn(io, server.run(), asio::detached);
  }
};

// A port where nothing listens: bind an ephemeral port, then release it.
std::uint16_t unused_port() {
  asio::io_context io;
  tcp::acceptor a(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  auto p = a.local_endpoint().port();
  a.close();
  return p;
}

}  // namespace

TEST_CASE("send: a JSON request and its Content-Length response") {
  server_fixture f;
  std::optional<result<http_client_response>> got;
  asio::co_spawn(
      f.io,
      [&]() -> awaitable<void> {
        http_client c(f.io.get_executor(), "127.0.0.1", f.port);
        http_client_request req{"POST", "/tools/x/call", {{"Authorization", "Bearer abc"}}, "{\"arguments\":{}}"};
        got = co_await c.send(req);
        f.server.stop();
      },
      asio::detached);
  f.io.run_for(5s);
  REQUIRE(got.has_value());
  REQUIRE_MESSAGE(got->ok(), got->err().message);
  CHECK((*got)->status() == 200);
  CHECK((*got)->header("X-OpenTabs-Version") == "9.9.9");
  auto body = json::parse_object((*got)->body);
  REQUIRE(body.ok());
  CHECK(*json::get_string(*body, "method") == "POST");
  CHECK(*json::get_string(*body, "body") == "{\"arguments\":{}}");
  CHECK(*json::get_string(*body, "auth") == "Bearer abc");
}

TEST_CASE("send: error statuses are responses, not failures") {
  server_fixture f;
  std::optional<result<http_client_response>> got;
  asio::co_spawn(
      f.io,
      [&]() -> awaitable<void> {
        http_client c(f.io.get_executor(), "127.0.0.1", f.port);
        http_client_request req{"GET", "/missing", {}, ""};
        got = co_await c.send(req);
        f.server.stop();
      },
      asio::detached);
  f.io.run_for(5s);
  REQUIRE(got.has_value());
  REQUIRE(got->ok());
  CHECK((*got)->status() == 404);
}

TEST_CASE("stream: SSE events arrive while the response is still open") {
  server_fixture f;
  std::vector<std::string> data;
  std::optional<result<response_head>> head;
  asio::co_spawn(
      f.io,
      [&]() -> awaitable<void> {
        http_client c(f.io.get_executor(), "127.0.0.1", f.port);
        sse_parser sse;
        http_client_request req{"GET", "/sse", {{"Accept", "text/event-stream"}}, ""};
        head = co_await c.stream(
            req,
            [](const response_head& h) { return h.status == 200; },
            [&](std::string piece) -> awaitable<bool> {
              std::vector<sse_event> events;
              if (!sse.feed(piece, events)) co_return false;
              for (auto& e : events) data.push_back(e.data);
              co_return true;
            });
        f.server.stop();
      },
      asio::detached);
  f.io.run_for(5s);
  REQUIRE(head.has_value());
  REQUIRE_MESSAGE(head->ok(), head->err().message);
  CHECK((*head)->header("content-type") == "text/event-stream");
  CHECK(data == std::vector<std::string>{"{\"n\":1}", "{\"n\":2}"});
}

TEST_CASE("cancel ends an open stream with \"cancelled\"") {
  // A raw peer that sends the head of an endless event stream and then holds the socket.
  asio::io_context io{1};
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  auto port = acceptor.local_endpoint().port();
  std::optional<tcp::socket> held;
  std::optional<result<response_head>> head;
  asio::co_spawn(
      io,
      [&]() -> awaitable<void> {
        held.emplace(co_await acceptor.async_accept(use_awaitable));
        char buf[1024];
        co_await held->async_read_some(asio::buffer(buf), as_value);
        std::string reply = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n: open\n\n\r\n";
        co_await asio::async_write(*held, asio::buffer(reply), as_value);
      },
      asio::detached);
  asio::co_spawn(
      io,
      [&]() -> awaitable<void> {
        http_client_options o;
        o.idle_timeout = 60s;
        o.total_timeout = 0ms;
        http_client c(io.get_executor(), "127.0.0.1", port, o);
        http_client_request req{"GET", "/forever", {}, ""};
        head = co_await c.stream(
            req, [](const response_head&) { return true; },
            [&](std::string) -> awaitable<bool> {
              c.cancel();  // the first piece arrived: the caller decides to stop
              co_return true;
            });
      },
      asio::detached);
  io.run_for(5s);
  REQUIRE(head.has_value());
  REQUIRE_FALSE(head->ok());
  CHECK(head->err().is(net_failure::cancelled));
}

TEST_CASE("nothing listening is connect_failed") {
  asio::io_context io{1};
  std::optional<result<http_client_response>> got;
  auto port = unused_port();
  asio::co_spawn(
      io,
      [&]() -> awaitable<void> {
        http_client c(io.get_executor(), "127.0.0.1", port);
        http_client_request req{"GET", "/health", {}, ""};
        got = co_await c.send(req);
      },
      asio::detached);
  io.run_for(5s);
  REQUIRE(got.has_value());
  REQUIRE_FALSE(got->ok());
  CHECK(got->err().is(net_failure::connect_failed));
}

namespace {

// One GET /health with options `o` to a raw peer that accepts and then does what `peer`
// does with the socket (it may watch `done`, set once the client has its result).
result<http_client_response> send_to_raw_peer(http_client_options o,
                                              std::function<awaitable<void>(tcp::socket&, const bool& done)> peer) {
  asio::io_context io{1};
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  auto port = acceptor.local_endpoint().port();
  std::optional<tcp::socket> held;
  std::optional<result<http_client_response>> got;
  bool done = false;
  asio::co_spawn(
      io,
      [&]() -> awaitable<void> {
        held.emplace(co_await acceptor.async_accept(use_awaitable));
        co_await peer(*held, done);
      },
      asio::detached);
  asio::co_spawn(
      io,
      [&]() -> awaitable<void> {
        http_client c(io.get_executor(), "127.0.0.1", port, o);
        http_client_request req{"GET", "/health", {}, ""};  // named (GCC 12: net/asio.hpp)
        got = co_await c.send(req);
        done = true;
      },
      asio::detached);
  io.run_for(10s);
  REQUIRE(got.has_value());
  return std::move(*got);
}

}  // namespace

TEST_CASE("a peer that accepts and never answers hits the idle deadline") {
  http_client_options o;
  o.idle_timeout = 100ms;  // shortened knob; the assertion is on the outcome, not the time
  auto got = send_to_raw_peer(o, [](tcp::socket&, const bool&) -> awaitable<void> { co_return; });
  REQUIRE_FALSE(got.ok());
  CHECK(got.err().code() == "timeout");
  CHECK(got.err().message == "no response bytes for 100 ms");
}

TEST_CASE("a peer that trickles its answer hits the whole exchange's deadline, not the idle one") {
  http_client_options o;
  o.idle_timeout = 2s;
  o.total_timeout = 100ms;  // shortened knob; the assertion is on the outcome, not the time
  auto got = send_to_raw_peer(o, [](tcp::socket& peer, const bool& done) -> awaitable<void> {
    std::string head = "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n";
    co_await asio::async_write(peer, asio::buffer(head), as_value);
    asio::steady_timer t(peer.get_executor());
    for (int i = 0; i < 1000 && !done; ++i) {  // a byte every 5 ms: never idle for long
      t.expires_after(5ms);
      co_await t.async_wait(as_value);
      co_await asio::async_write(peer, asio::buffer("x", 1), as_value);
    }
  });
  REQUIRE_FALSE(got.ok());
  CHECK(got.err().code() == "timeout");
  CHECK(got.err().message == "the response did not complete within 100 ms");
}

TEST_CASE("a peer that closes mid-body is truncated; a huge body is too_large") {
  for (auto [reply, code] : {std::pair<std::string, std::string>{"HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nshort", "truncated"},
                             {"HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n", "too_large"}}) {
    asio::io_context io{1};
    tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    auto port = acceptor.local_endpoint().port();
    std::optional<result<http_client_response>> got;
    asio::co_spawn(
        io,
        [&, reply = reply]() -> awaitable<void> {
          auto s = co_await acceptor.async_accept(use_awaitable);
          char buf[1024];
          co_await s.async_read_some(asio::buffer(buf), as_value);
          co_await asio::async_write(s, asio::buffer(reply), as_value);
          s.close();
        },
        asio::detached);
    asio::co_spawn(
        io,
        [&]() -> awaitable<void> {
          http_client_options o;
          o.limits.max_body_bytes = 1000;
          http_client c(io.get_executor(), "127.0.0.1", port, o);
          http_client_request req{"GET", "/x", {}, ""};
        got = co_await c.send(req);
        },
        asio::detached);
    io.run_for(5s);
    REQUIRE(got.has_value());
    REQUIRE_FALSE(got->ok());
    CHECK(got->err().code() == code);
  }
}

TEST_CASE("serialize_request adds Host, Content-Length and Connection once") {
  auto s = serialize_request({"POST", "/mcp", {{"Host", "evil"}, {"Accept", "text/event-stream"}}, "{}"}, "127.0.0.1", 9515);
  CHECK(s ==
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:9515\r\nAccept: text/event-stream\r\nContent-Length: 2\r\n"
        "Connection: close\r\n\r\n{}");
}

TEST_CASE("serialize_request keeps a caller's Connection header (WebSocket upgrade probes)") {
  auto s = serialize_request({"GET", "/ws", {{"Connection", "Upgrade"}, {"Upgrade", "websocket"}}, ""}, "127.0.0.1", 1);
  CHECK(s == "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n");
}

TEST_CASE("reuse_connections: later requests, streamed or not, go over the kept connection") {
  for (bool reuse : {true, false}) {
    server_fixture f;
    std::vector<std::int64_t> peers;
    std::vector<std::string> events;
    std::size_t idle_after = 99;
    asio::co_spawn(
        f.io,
        [&]() -> awaitable<void> {
          http_client_options o;
          o.reuse_connections = reuse;
          http_client c(f.io.get_executor(), "127.0.0.1", f.port, o);
          auto peer_of = [&](const result<http_client_response>& r) {
            auto body = json::parse_object(r->body);
            return body ? json::get_int(*body, "peer").value_or(-1) : -1;
          };
          // Named requests (GCC 12: net/asio.hpp).
          http_client_request post{"POST", "/mcp", {}, "{}"};
          http_client_request sse{"GET", "/sse", {}, ""};
          auto a = co_await c.send(post);
          if (a) peers.push_back(peer_of(a));
          auto st = co_await c.stream(
              sse, [](const response_head&) { return true; },
              [&](std::string piece) -> awaitable<bool> {
                events.push_back(std::move(piece));
                co_return true;
              });
          if (!st) events.push_back("failed: " + st.err().message);
          auto b = co_await c.send(post);
          if (b) peers.push_back(peer_of(b));
          idle_after = c.idle_connections();
          f.server.stop();
        },
        asio::detached);
    f.io.run_for(5s);
    CAPTURE(reuse);
    REQUIRE(peers.size() == 2);
    REQUIRE_FALSE(events.empty());
    CHECK(events.back().rfind("failed", 0) != 0);
    CHECK((peers[0] == peers[1]) == reuse);
    CHECK(idle_after == (reuse ? 1u : 0u));
  }
}

TEST_CASE("reuse_connections: a kept connection closed by the server is replaced, also under a request") {
  // The peer answers the first request and keeps the connection open; it then closes that
  // connection either before the client's next request (seen as EOF before reuse) or right
  // after reading it without answering (the request goes once more on a new connection).
  for (bool close_under_request : {false, true}) {
    asio::io_context io{1};
    tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    auto port = acceptor.local_endpoint().port();
    int accepted = 0;
    bool first_closed = false;
    std::vector<std::string> bodies;
    asio::co_spawn(
        io,
        [&]() -> awaitable<void> {
          char buf[4096];
          auto s1 = co_await acceptor.async_accept(use_awaitable);
          ++accepted;
          co_await s1.async_read_some(asio::buffer(buf), as_value);
          std::string one = "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\none";
          co_await asio::async_write(s1, asio::buffer(one), as_value);
          if (close_under_request) co_await s1.async_read_some(asio::buffer(buf), as_value);
          s1.close();
          first_closed = true;
          auto s2 = co_await acceptor.async_accept(use_awaitable);
          ++accepted;
          co_await s2.async_read_some(asio::buffer(buf), as_value);
          std::string two = "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\ntwo";
          co_await asio::async_write(s2, asio::buffer(two), as_value);
        },
        asio::detached);
    asio::co_spawn(
        io,
        [&]() -> awaitable<void> {
          http_client_options o;
          o.reuse_connections = true;
          http_client c(io.get_executor(), "127.0.0.1", port, o);
          http_client_request post{"POST", "/mcp", {}, "{}"};
          auto a = co_await c.send(post);
          bodies.push_back(a ? a->body : "failed: " + a.err().message);
          if (!close_under_request) {
            // Let the close land first (a FIN the client sees before it reuses the connection).
            asio::steady_timer t(io);
            while (!first_closed) {
              t.expires_after(5ms);
              co_await t.async_wait(as_value);
            }
            t.expires_after(20ms);
            co_await t.async_wait(as_value);
          }
          auto b = co_await c.send(post);
          bodies.push_back(b ? b->body : "failed: " + b.err().message);
        },
        asio::detached);
    io.run_for(5s);
    CAPTURE(close_under_request);
    REQUIRE(bodies.size() == 2);
    CHECK(bodies[0] == "one");
    CHECK(bodies[1] == "two");
    CHECK(accepted == 2);
  }
}

TEST_CASE("serialize_request with keep_alive asks for a kept connection") {
  auto s = serialize_request({"POST", "/mcp", {}, "{}"}, "127.0.0.1", 9515, true);
  CHECK(s == "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:9515\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\n{}");
}

TEST_CASE("send: a request larger than the socket buffer is written whole (the part that does not fit at once waits)") {
  server_fixture f;
  std::optional<result<http_client_response>> got;
  const std::string big(3 * 1024 * 1024, 'x');  // under the fixture's 4 MiB unauthenticated body budget
  asio::co_spawn(
      f.io,
      [&]() -> awaitable<void> {
        for (bool reuse : {false, true}) {
          http_client_options o;
          o.reuse_connections = reuse;
          http_client c(f.io.get_executor(), "127.0.0.1", f.port, o);
          http_client_request req{"POST", "/echo", {}, big};
          got = co_await c.send(req);
          if (!got->ok() || (*got)->body.find(big) == std::string::npos) break;
        }
        f.server.stop();
      },
      asio::detached);
  f.io.run_for(10s);
  REQUIRE(got.has_value());
  REQUIRE_MESSAGE(got->ok(), got->err().message);
  CHECK((*got)->status() == 200);
  CHECK((*got)->body.find(big) != std::string::npos);
}
