// The client-side HTTP response parser: Content-Length, chunked and close-delimited bodies,
// fed whole, split anywhere and byte by byte; interim 1xx heads; every bound.
#include <doctest/doctest.h>

#include <string>

#include "net/http_response_parser.hpp"
#include "net/net_failure.hpp"

using namespace opentabs;
using namespace opentabs::net;

namespace {

// Feeds `wire` in pieces of `step` bytes (0 = all at once) and returns the decoded body.
std::string feed_all(http_response_parser& p, const std::string& wire, std::size_t step = 0) {
  std::string body;
  if (step == 0) step = wire.size();
  for (std::size_t i = 0; i < wire.size(); i += step) {
    auto st = p.feed(std::string_view(wire).substr(i, step));
    REQUIRE_MESSAGE(st.ok(), st.err().message);
    body += p.take_body();
  }
  return body;
}

}  // namespace

TEST_CASE("Content-Length body, whole and split at every size") {
  const std::string wire =
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"ok\":true}";
  for (std::size_t step : {0, 1, 2, 7, 64}) {
    http_response_parser p;
    auto body = feed_all(p, wire, step);
    CHECK(p.done());
    CHECK(p.head().status == 200);
    CHECK(p.head().reason == "OK");
    CHECK(p.head().header("content-type") == "application/json");
    CHECK(body == "{\"ok\":true}");
  }
}

TEST_CASE("chunked body with extensions and trailers, byte by byte") {
  const std::string wire =
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/event-stream\r\n\r\n"
      "5;ext=1\r\nhello\r\n7\r\n, world\r\n0\r\nX-Trailer: yes\r\n\r\n";
  for (std::size_t step : {0, 1, 3}) {
    http_response_parser p;
    auto body = feed_all(p, wire, step);
    CHECK(p.done());
    CHECK(body == "hello, world");
  }
}

TEST_CASE("chunked body is handed out before the response ends") {
  http_response_parser p;
  REQUIRE(p.feed("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\ndata: ").ok());
  CHECK(p.head_complete());
  CHECK_FALSE(p.done());
  CHECK(p.take_body() == "data: ");
  REQUIRE(p.feed("\r\n").ok());
  CHECK(p.take_body().empty());
  REQUIRE(p.feed("0\r\n\r\n").ok());
  CHECK(p.done());
}

TEST_CASE("a body without length ends when the peer closes") {
  http_response_parser p;
  REQUIRE(p.feed("HTTP/1.1 200 OK\r\n\r\nsome").ok());
  REQUIRE(p.feed(" bytes").ok());
  CHECK_FALSE(p.done());
  REQUIRE(p.finish().ok());
  CHECK(p.done());
  CHECK(p.take_body() == "some bytes");
}

TEST_CASE("204, 304 and HEAD responses have no body") {
  http_response_parser a;
  REQUIRE(a.feed("HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n").ok());
  CHECK(a.done());
  http_response_parser b;
  b.expect_no_body();
  REQUIRE(b.feed("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n").ok());
  CHECK(b.done());
  http_response_parser c;
  REQUIRE(c.feed("HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n").ok());
  CHECK(c.done());
  CHECK(c.head().status == 202);
}

TEST_CASE("interim 100 Continue is skipped") {
  http_response_parser p;
  auto body = feed_all(p, "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\nno", 5);
  CHECK(p.done());
  CHECK(p.head().status == 404);
  CHECK(body == "no");
}

TEST_CASE("malformed responses are errors that say what broke") {
  auto fails = [](std::string wire, std::string code) {
    http_response_parser p;
    auto st = p.feed(wire);
    REQUIRE_FALSE(st.ok());
    CHECK(st.err().code() == code);
    return st.err().message;
  };
  CHECK(fails("SSH-2.0-OpenSSH\r\n\r\n", "bad_response").find("status line") != std::string::npos);
  CHECK(fails("HTTP/1.1 2x0 OK\r\n\r\n", "bad_response").find("status code") != std::string::npos);
  CHECK(fails("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", "bad_response").find("header") != std::string::npos);
  CHECK(fails("HTTP/1.1 200 OK\r\nContent-Length: 12abc\r\n\r\n", "bad_response").find("Content-Length") !=
        std::string::npos);
  CHECK(fails("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "bad_response").find("chunk") !=
        std::string::npos);
  CHECK(fails("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabXY", "bad_response").find("CRLF") !=
        std::string::npos);
  CHECK(fails("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nabc", "bad_response").find("Content-Length") !=
        std::string::npos);
}

TEST_CASE("bounds: head size, announced and streamed body size") {
  response_parse_limits small{.max_head_bytes = 64, .max_body_bytes = 8};
  {
    http_response_parser p(small);
    auto st = p.feed("HTTP/1.1 200 OK\r\nX-Long: " + std::string(100, 'a'));
    REQUIRE_FALSE(st.ok());
    CHECK(st.err().code() == "too_large");
  }
  {
    http_response_parser p(small);
    auto st = p.feed("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n");
    REQUIRE_FALSE(st.ok());
    CHECK(st.err().code() == "too_large");
  }
  {
    http_response_parser p(small);
    REQUIRE(p.feed("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabcde\r\n").ok());
    auto st = p.feed("5\r\nfghij\r\n");
    REQUIRE_FALSE(st.ok());
    CHECK(st.err().code() == "too_large");
  }
  {
    http_response_parser p(small);
    REQUIRE(p.feed("HTTP/1.1 200 OK\r\n\r\n12345678").ok());
    auto st = p.feed("9");
    REQUIRE_FALSE(st.ok());
    CHECK(st.err().code() == "too_large");
  }
}

TEST_CASE("a connection closed early is reported as truncated") {
  http_response_parser a;
  REQUIRE(a.feed("HTTP/1.1 200 OK\r\nContent-Le").ok());
  CHECK(a.finish().err().is(net_failure::truncated));
  http_response_parser b;
  REQUIRE(b.feed("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc").ok());
  CHECK(b.finish().err().is(net_failure::truncated));
}

TEST_CASE("101 Switching Protocols ends the response; bytes after it are not HTTP") {
  http_response_parser p;
  REQUIRE(p.feed("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n\x81\x05hello").ok());
  CHECK(p.done());
  CHECK(p.head().status == 101);
  CHECK(p.take_body().empty());
}
