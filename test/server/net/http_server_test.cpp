// Drives the real http_server over loopback TCP with a raw client: keep-alive, limits,
// deadlines, streaming and a WebSocket echo.  Each test runs its own io_context with a
// hard cap (run_for) so a bug cannot hang the suite.
#include <doctest/doctest.h>

#include <string>

#include "codec/ws_codec.hpp"
#include "net/http_server.hpp"
#include "net/ws_connection.hpp"

using namespace opentabs;
using namespace opentabs::net;
using namespace std::chrono_literals;

namespace {

awaitable<void> echo_handler(http_exchange& ex) {
  const auto& req = ex.request();
  if (req.path == "/stream") {
    ex.start_stream(200, {{"Content-Type", "text/event-stream"}});
    ex.send_chunk("data: one\n\n");
    ex.send_chunk("data: two\n\n");
    ex.end_stream();
    co_return;
  }
  if (req.path == "/ws") {
    auto ws = ex.upgrade("opentabs");
    if (!ws) {
      ex.respond(http_response::error(400, "bad", ws.err().message));
      co_return;
    }
    while (auto msg = co_await (*ws)->read()) (*ws)->send_text("echo:" + msg->payload);
    co_return;
  }
  ex.respond(http_response::json(200, json::object{{"path", json::str(req.path)}, {"body", json::str(req.body)}}));
}

struct fixture {
  asio::io_context io{1};
  limits lim;
  std::unique_ptr<http_server> server;
  std::uint16_t port = 0;

  explicit fixture(limits l = {}) : lim(l) {
    server = std::make_unique<http_server>(io, lim, echo_handler);
    auto p = server->listen("127.0.0.1", 0);
    REQUIRE(p.ok());
    port = *p;
    asio::co_spawn(io, server->run(), asio::detached);
  }

  // Sends `request` bytes, reads until the peer closes or `until` appears; returns what came back.
  std::string exchange(std::string request, std::string until = "", std::chrono::milliseconds cap = 3000ms) {
    std::string got;
    asio::co_spawn(
        io,
        [&]() -> awaitable<void> {
          tcp::socket s(io);
          co_await s.async_connect({asio::ip::make_address("127.0.0.1"), port}, use_awaitable);
          co_await asio::async_write(s, asio::buffer(request), use_awaitable);
          char buf[4096];
          while (true) {
            auto [ec, n] = co_await s.async_read_some(asio::buffer(buf), as_value);
            if (ec) break;
            got.append(buf, n);
            if (!until.empty() && got.find(until) != std::string::npos) break;
          }
          server->stop();
        },
        asio::detached);
    io.run_for(cap);
    return got;
  }
};

std::size_t count(const std::string& s, const std::string& needle) {
  std::size_t n = 0;
  for (auto p = s.find(needle); p != std::string::npos; p = s.find(needle, p + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("keep-alive: two requests on one connection, then close") {
  fixture f;
  auto got = f.exchange(
      "POST /a HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\nhi"
      "GET /b HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
  CHECK(count(got, "HTTP/1.1 200 OK") == 2);
  CHECK(got.find(R"("body":"hi")") != std::string::npos);
  CHECK(got.find(R"("path":"/b")") != std::string::npos);
}

TEST_CASE("oversize body gets 413 and the connection closes") {
  limits l;
  l.max_body_bytes = 8;
  fixture f(l);
  auto got = f.exchange("POST /a HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n0123456789");
  CHECK(got.rfind("HTTP/1.1 413", 0) == 0);
  CHECK(got.find("Connection: close") != std::string::npos);
}

TEST_CASE("malformed request line gets 400 with a reason") {
  fixture f;
  auto got = f.exchange("NONSENSE\r\n\r\n");
  CHECK(got.rfind("HTTP/1.1 400", 0) == 0);
  CHECK(got.find("error_description") != std::string::npos);
}

TEST_CASE("a client that stalls mid-head is dropped at its deadline") {
  limits l;
  l.head_timeout = 200ms;
  fixture f(l);
  auto got = f.exchange("GET / HTTP/1.1\r\nHost: local", "", 3000ms);
  CHECK(got.empty());  // the server closed without answering
  CHECK(f.server->connection_count() == 0);
}

TEST_CASE("chunked streamed response") {
  fixture f;
  auto got = f.exchange("GET /stream HTTP/1.1\r\nHost: localhost\r\n\r\n", "0\r\n\r\n");
  CHECK(got.find("Transfer-Encoding: chunked") != std::string::npos);
  CHECK(got.find("b\r\ndata: one\n\n\r\n") != std::string::npos);
  CHECK(got.find("0\r\n\r\n") != std::string::npos);
}

TEST_CASE("websocket upgrade and echo, with the masked RFC frame") {
  fixture f;
  std::string frame("\x81\x85\x37\xfa\x21\x3d\x7f\x9f\x4d\x51\x58", 11);
  auto got = f.exchange(
      "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n" + frame,
      "echo:Hello");
  CHECK(got.rfind("HTTP/1.1 101", 0) == 0);
  CHECK(got.find("echo:Hello") != std::string::npos);
}

TEST_CASE("websocket: an unmasked frame is answered with close 1002") {
  fixture f;
  std::string bad("\x81\x05Hello", 7);
  auto got = f.exchange(
      "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n" + bad);
  auto pos = got.find("\r\n\r\n");
  REQUIRE(pos != std::string::npos);
  auto rest = got.substr(pos + 4);
  REQUIRE(rest.size() >= 4);
  CHECK(static_cast<unsigned char>(rest[0]) == 0x88);
  CHECK(static_cast<unsigned char>(rest[2]) == 0x03);
  CHECK(static_cast<unsigned char>(rest[3]) == 0xea);  // 1002
}

TEST_CASE("websocket: silence is answered with a ping, then dropped without a pong") {
  limits l;
  l.ws_ping_after = 100ms;
  l.ws_pong_timeout = 100ms;
  fixture f(l);
  auto got = f.exchange(
      "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
  auto pos = got.find("\r\n\r\n");
  REQUIRE(pos != std::string::npos);
  auto rest = got.substr(pos + 4);
  REQUIRE_FALSE(rest.empty());
  CHECK(static_cast<unsigned char>(rest[0]) == 0x89);  // ping
  CHECK(f.server->connection_count() == 0);
}
