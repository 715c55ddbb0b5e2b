// Drives the real http_server over loopback TCP with a raw client: keep-alive, limits,
// deadlines, streaming and a WebSocket echo.  Each test runs its own io_context with a
// hard cap (run_for) so a bug cannot hang the suite.
#include <doctest/doctest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "codec/ws_codec.hpp"
#include "net/http_server.hpp"
#include "net/ws_connection.hpp"
#include "test/server/net/handler_service.hpp"

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
  if (req.path == "/deferred" || req.path == "/deferred-flushed") {
    // The answer takes a moment, long enough for the connection's writer to run.
    ex.start_stream_deferred(200, {{"Content-Type", "text/event-stream"}});
    if (req.path == "/deferred-flushed") ex.flush_head();
    asio::steady_timer pause(co_await asio::this_coro::executor, 50ms);
    co_await pause.async_wait(as_value);
    ex.send_chunk("data: one\n\n");
    ex.end_stream();
    co_return;
  }
  if (req.path == "/big") {
    http_response res;
    res.status = 200;
    res.body.assign(256 * 1024, 'b');
    ex.respond(std::move(res));
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
  net::testing::handler_service service;
  std::unique_ptr<http_server> server;
  std::uint16_t port = 0;
  std::size_t handled = 0;

  explicit fixture(limits l = {}, std::function<head_verdict(const codec::http_request&)> screen = nullptr) : lim(l) {
    service.handler = [this](http_exchange& ex) {
      ++handled;
      return echo_handler(ex);
    };
    service.head_screen = std::move(screen);
    server = std::make_unique<http_server>(io, lim, service);
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

// Refuses every request without "Authorization: yes" with 401 (like the app's router).
head_verdict screen_by_header(const codec::http_request& head) {
  head_verdict v;
  v.authenticated = head.header("Authorization") == "yes";
  if (!v.authenticated && head.path != "/open") v.refusal = http_response::error(401, "unauthorized", "no");
  return v;
}

// One raw client step: write `send` (if any), then read until `until` appears or the peer
// closes.  Returns what was read.
awaitable<std::string> step(tcp::socket& s, std::string send, std::string until) {
  if (!send.empty()) co_await asio::async_write(s, asio::buffer(send), as_value);
  std::string got;
  char buf[4096];
  while (got.find(until) == std::string::npos) {
    auto [ec, n] = co_await s.async_read_some(asio::buffer(buf), as_value);
    if (ec) break;
    got.append(buf, n);
  }
  co_return got;
}

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

// What one read returns after a request: the bytes of the server's first write.
std::string first_read(fixture& f, std::string request) {
  std::string got;
  asio::co_spawn(
      f.io,
      [&]() -> awaitable<void> {
        tcp::socket s(f.io);
        co_await s.async_connect({asio::ip::make_address("127.0.0.1"), f.port}, use_awaitable);
        co_await asio::async_write(s, asio::buffer(request), use_awaitable);
        char buf[4096];
        auto [ec, n] = co_await s.async_read_some(asio::buffer(buf), as_value);
        if (!ec) got.assign(buf, n);
        // Let the rest arrive before closing, so the handler ends normally.
        asio::steady_timer settle(f.io, 100ms);
        co_await settle.async_wait(as_value);
        f.server->stop();
      },
      asio::detached);
  f.io.run_for(3000ms);
  return got;
}

TEST_CASE("a deferred stream head leaves with the first chunk, in one write") {
  fixture f;
  auto got = first_read(f, "GET /deferred HTTP/1.1\r\nHost: localhost\r\n\r\n");
  CHECK(got.rfind("HTTP/1.1 200 OK", 0) == 0);
  CHECK(got.find("b\r\ndata: one\n\n\r\n0\r\n\r\n") != std::string::npos);
}

TEST_CASE("a flushed deferred head goes out at once, before the first chunk") {
  fixture f;
  auto got = first_read(f, "GET /deferred-flushed HTTP/1.1\r\nHost: localhost\r\n\r\n");
  CHECK(got.rfind("HTTP/1.1 200 OK", 0) == 0);
  CHECK(got.find("data: one") == std::string::npos);
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

TEST_CASE("a refused head is answered before its body is read, and the body is never handed on") {
  fixture f({}, screen_by_header);
  // 5 MB announced, nothing sent: the answer must come anyway.
  auto got = f.exchange("POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5000000\r\n\r\n", "\r\n\r\n");
  CHECK(got.rfind("HTTP/1.1 401", 0) == 0);
  CHECK(got.find("Connection: close") != std::string::npos);
  CHECK(f.handled == 0);
}

TEST_CASE("a refused request whose body is already here keeps the connection") {
  fixture f({}, screen_by_header);
  auto got = f.exchange(
      "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\nhi"
      "POST /a HTTP/1.1\r\nHost: localhost\r\nAuthorization: yes\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
  CHECK(got.rfind("HTTP/1.1 401", 0) == 0);
  CHECK(got.find(R"("body":"ok")") != std::string::npos);
  CHECK(f.handled == 1);
}

TEST_CASE("Expect: 100-continue gets 100 after the head passes, then the answer") {
  fixture f({}, screen_by_header);
  std::string interim, final_answer;
  asio::co_spawn(
      f.io,
      [&]() -> awaitable<void> {
        tcp::socket s(f.io);
        co_await s.async_connect({asio::ip::make_address("127.0.0.1"), f.port}, use_awaitable);
        interim = co_await step(s,
                                "POST /a HTTP/1.1\r\nHost: localhost\r\nAuthorization: yes\r\nExpect: 100-continue\r\n"
                                "Content-Length: 5\r\nConnection: close\r\n\r\n",
                                "\r\n\r\n");
        final_answer = co_await step(s, "hello", "hello\"}");
        f.server->stop();
      },
      asio::detached);
  f.io.run_for(3000ms);
  CHECK(interim == "HTTP/1.1 100 Continue\r\n\r\n");
  CHECK(final_answer.rfind("HTTP/1.1 200", 0) == 0);
  CHECK(final_answer.find(R"("body":"hello")") != std::string::npos);
}

TEST_CASE("Expect: 100-continue with a refused head gets the final answer and no 100") {
  fixture f({}, screen_by_header);
  auto got = f.exchange(
      "POST /a HTTP/1.1\r\nHost: localhost\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n", "\r\n\r\n");
  CHECK(got.rfind("HTTP/1.1 401", 0) == 0);
  CHECK(got.find("100 Continue") == std::string::npos);
}

TEST_CASE("unauthenticated bodies share one budget: beyond it, 503 with Retry-After") {
  limits l;
  l.unauthenticated_body_bytes = 10;
  fixture f(l, screen_by_header);
  std::string first, second, third;
  asio::co_spawn(
      f.io,
      [&]() -> awaitable<void> {
        tcp::socket a(f.io), b(f.io), c(f.io);
        tcp::endpoint ep{asio::ip::make_address("127.0.0.1"), f.port};
        co_await a.async_connect(ep, use_awaitable);
        co_await b.async_connect(ep, use_awaitable);
        co_await c.async_connect(ep, use_awaitable);
        // a holds 8 of the 10 bytes while its body is still coming.
        first = co_await step(a, "POST /open HTTP/1.1\r\nHost: localhost\r\nExpect: 100-continue\r\nContent-Length: 8\r\n\r\n",
                              "\r\n\r\n");
        second = co_await step(b, "POST /open HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\n", "\r\n\r\n");
        // An authenticated body does not draw on the budget.
        third = co_await step(c,
                              "POST /a HTTP/1.1\r\nHost: localhost\r\nAuthorization: yes\r\nContent-Length: 5\r\n"
                              "Connection: close\r\n\r\nabcde",
                              "abcde\"}");
        CHECK(f.server->unauthenticated_body_bytes() == 8);
        first += co_await step(a, "12345678", "12345678\"}");
        CHECK(f.server->unauthenticated_body_bytes() == 0);
        f.server->stop();
      },
      asio::detached);
  f.io.run_for(3000ms);
  CHECK(first.rfind("HTTP/1.1 100 Continue", 0) == 0);
  CHECK(first.find(R"("body":"12345678")") != std::string::npos);
  CHECK(second.rfind("HTTP/1.1 503", 0) == 0);
  CHECK(second.find("Retry-After: 1") != std::string::npos);
  CHECK(third.find(R"("body":"abcde")") != std::string::npos);
}

TEST_CASE("when slots run out, the oldest idle unauthenticated socket makes room; an authenticated one stays") {
  limits l;
  l.max_connections = 3;
  l.reserved_connections = 1;  // two unauthenticated at once
  fixture f(l, screen_by_header);
  std::string authed_answer, idle_one, idle_two, newcomer;
  asio::co_spawn(
      f.io,
      [&]() -> awaitable<void> {
        tcp::endpoint ep{asio::ip::make_address("127.0.0.1"), f.port};
        tcp::socket authed(f.io), idle1(f.io), idle2(f.io), late(f.io);
        co_await authed.async_connect(ep, use_awaitable);
        authed_answer = co_await step(authed, "GET /a HTTP/1.1\r\nHost: localhost\r\nAuthorization: yes\r\n\r\n", "}");
        co_await idle1.async_connect(ep, use_awaitable);
        co_await idle2.async_connect(ep, use_awaitable);
        // Both idle sockets are in; a newcomer pushes out the older one.
        co_await late.async_connect(ep, use_awaitable);
        idle_one = co_await step(idle1, "", "never");  // EOF: evicted
        newcomer = co_await step(late, "GET /a HTTP/1.1\r\nHost: localhost\r\nAuthorization: yes\r\n\r\n", "}");
        authed_answer += co_await step(authed, "GET /b HTTP/1.1\r\nHost: localhost\r\nAuthorization: yes\r\n\r\n", "/b");
        CHECK(f.server->connection_count() == 3);
        f.server->stop();
      },
      asio::detached);
  f.io.run_for(3000ms);
  CHECK(idle_one.empty());
  CHECK(newcomer.rfind("HTTP/1.1 200", 0) == 0);
  CHECK(count(authed_answer, "HTTP/1.1 200") == 2);
}

TEST_CASE("after stop(), wait_closed resumes once every connection coroutine has ended") {
  fixture f;
  std::optional<bool> before_stop, after_stop;
  std::size_t open_before = 0;
  asio::co_spawn(
      f.io,
      [&]() -> awaitable<void> {
        tcp::endpoint ep{asio::ip::make_address("127.0.0.1"), f.port};
        tcp::socket a(f.io), b(f.io);
        co_await a.async_connect(ep, use_awaitable);
        co_await b.async_connect(ep, use_awaitable);
        co_await step(a, "GET /a HTTP/1.1\r\nHost: localhost\r\n\r\n", "}");  // a is served, kept alive
        open_before = f.server->connection_count();
        before_stop = co_await f.server->wait_closed(steady_clock::now() + 50ms);
        f.server->stop();
        after_stop = co_await f.server->wait_closed(steady_clock::now() + 2s);
      },
      asio::detached);
  f.io.run_for(5000ms);
  CHECK(open_before == 2);
  REQUIRE(before_stop.has_value());
  CHECK_FALSE(*before_stop);
  REQUIRE(after_stop.has_value());
  CHECK(*after_stop);
  CHECK(f.server->connection_count() == 0);
}

TEST_CASE("a client that pipelines requests and reads no answers is not answered further while answers pile up") {
  limits lim;
  lim.pipelined_answer_bytes = 512 * 1024;
  fixture f(lim);
  std::string pipelined;
  for (int i = 0; i < 100; ++i) pipelined += "GET /big HTTP/1.1\r\nHost: x\r\n\r\n";  // 25 MiB of answers
  tcp::socket client(f.io);
  asio::co_spawn(
      f.io,
      [&]() -> awaitable<void> {
        co_await client.async_connect({asio::ip::make_address("127.0.0.1"), f.port}, use_awaitable);
        co_await asio::async_write(client, asio::buffer(pipelined), use_awaitable);
        // ... and never reads.
      },
      asio::detached);
  f.io.run_for(1s);
  // Without the bound all 100 are answered into the outbox at once.  With it, the reader
  // stops once 512 KiB wait behind what the socket buffers took (a few MiB on loopback).
  CAPTURE(f.handled);
  CHECK(f.handled >= 2);
  CHECK(f.handled < 60);
}
