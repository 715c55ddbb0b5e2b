#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "codec/ws_codec.hpp"

using namespace opentabs::codec;
using opentabs::errc;

namespace {

const std::string kUpgrade =
    "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:9515\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
    "Sec-WebSocket-Protocol: opentabs, s3cret , conn-1\r\n\r\n";

// RFC 6455 §5.7: a masked client text frame carrying "Hello".
const std::string kMaskedHello("\x81\x85\x37\xfa\x21\x3d\x7f\x9f\x4d\x51\x58", 11);

// Feeds until the parser stops asking (a feed stops at the end of the head).
std::size_t feed_all(request_parser& p, const char* data, std::size_t size) {
  std::size_t used = 0;
  while (p.current() == request_parser::state::need_more && used < size) {
    auto n = p.feed(data + used, size - used);
    if (n == 0) break;
    used += n;
  }
  return used;
}

http_request parse_all(const std::string& raw) {
  request_parser p;
  auto used = feed_all(p, raw.data(), raw.size());
  REQUIRE(p.current() == request_parser::state::done);
  CHECK(used == raw.size());
  return p.take();
}

}  // namespace

TEST_CASE("request parser: whole, split at every byte, and one byte at a time") {
  const std::string raw = "POST /tools/x/call?a=1&b=hello%20world HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello";
  auto req = parse_all(raw);
  CHECK(req.method == "POST");
  CHECK(req.path == "/tools/x/call");
  CHECK(req.query_param("b") == "hello world");
  CHECK(req.body == "hello");
  CHECK(req.keep_alive());
  for (std::size_t cut = 1; cut < raw.size(); ++cut) {
    request_parser p;
    std::size_t used = p.feed(raw.data(), cut);
    used += feed_all(p, raw.data() + used, raw.size() - used);
    REQUIRE(p.current() == request_parser::state::done);
    CHECK(p.take().body == "hello");
  }
  request_parser p;
  for (char c : raw) {
    REQUIRE(p.current() == request_parser::state::need_more);
    CHECK(p.feed(&c, 1) == 1);
  }
  CHECK(p.current() == request_parser::state::done);
}

TEST_CASE("request parser leaves pipelined bytes unconsumed") {
  const std::string one = "GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n";
  const std::string two = one + "GET /audit HTTP/1.1\r\nHost: localhost\r\n\r\n";
  request_parser p;
  auto used = p.feed(two.data(), two.size());
  CHECK(used == one.size());
  CHECK(p.take().path == "/health");
  p.reset();
  p.feed(two.data() + used, two.size() - used);
  CHECK(p.take().path == "/audit");
}

TEST_CASE("request parser stops at the end of the head so the caller can screen it before the body") {
  const std::string head = "POST /mcp HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer x\r\nContent-Length: 10\r\n\r\n";
  const std::string raw = head + "0123456789";
  for (std::size_t cut = 1; cut <= head.size(); ++cut) {
    request_parser p;
    std::size_t used = p.feed(raw.data(), cut);
    if (cut < head.size()) {
      CHECK_FALSE(p.head_complete());
      used += p.feed(raw.data() + used, raw.size() - used);
    }
    REQUIRE(used == head.size());  // not one body byte taken
    REQUIRE(p.head_complete());
    CHECK(p.current() == request_parser::state::need_more);
    CHECK(p.announced_body_bytes() == 10);
    auto h = p.head();
    CHECK(h.path == "/mcp");
    CHECK(h.header("Authorization") == "Bearer x");
    CHECK(h.body.empty());
    CHECK(p.feed(raw.data() + used, raw.size() - used) == 10);
    REQUIRE(p.current() == request_parser::state::done);
    CHECK(p.take().body == "0123456789");
  }
  // A Host header early in the head does not make the head complete (the old check did).
  request_parser p;
  const std::string partial = "GET / HTTP/1.1\r\nHost: x\r\nAuthori";
  p.feed(partial.data(), partial.size());
  CHECK_FALSE(p.head_complete());
}

TEST_CASE("request parser: framing errors are found on the head, before the body") {
  request_parser p;
  const std::string raw = "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\nhello";
  p.feed(raw.data(), raw.size());
  CHECK(p.current() == request_parser::state::rejected);
  CHECK(p.reject_status() == 411);
}

TEST_CASE("request parser rejects bad input with the right status") {
  auto reject = [](const std::string& raw, parse_limits l = {}) {
    request_parser p(l);
    p.feed(raw.data(), raw.size());
    REQUIRE(p.current() == request_parser::state::rejected);
    return p.reject_status();
  };
  CHECK(reject("garbage\r\n\r\n") == 400);
  CHECK(reject("GET / HTTP/1.1\r\n\r\n") == 400);  // no Host
  CHECK(reject("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n", {.max_body_bytes = 10}) == 413);
  CHECK(reject("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n") == 411);
  CHECK(reject("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3x\r\n\r\nabc") == 400);
  CHECK(reject("GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(20000, 'a') + "\r\n\r\n") == 431);
  CHECK(reject("GET / HTTP/2.0\r\nHost: x\r\n\r\n") == 505);
}

TEST_CASE("handshake: RFC accept key and exactly one subprotocol") {
  auto req = parse_all(kUpgrade);
  CHECK(is_websocket_upgrade(req));
  auto offered = offered_subprotocols(req);
  REQUIRE(offered.size() == 3);
  CHECK(offered[1] == "s3cret");
  auto res = accept_handshake(req, "opentabs");
  if (!res.ok()) MESSAGE(res.err().message);
  REQUIRE(res.ok());
  CHECK(res->rfind("HTTP/1.1 101", 0) == 0);
  CHECK(res->find("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=") != std::string::npos);
  CHECK(res->find("Sec-WebSocket-Protocol: opentabs\r\n") != std::string::npos);
}

TEST_CASE("handshake: wrong version is refused") {
  auto raw = kUpgrade;
  raw.replace(raw.find("Version: 13"), 11, "Version: 8");
  auto res = accept_handshake(parse_all(raw), "opentabs");
  REQUIRE_FALSE(res.ok());
  CHECK(res.err().is(errc::unsupported));
}

TEST_CASE("handshake leftovers: frame bytes after the head are not consumed") {
  auto raw = kUpgrade + kMaskedHello;
  request_parser p;
  auto used = p.feed(raw.data(), raw.size());
  CHECK(used == kUpgrade.size());
}

TEST_CASE("decoder: masked frame whole, split and byte by byte") {
  for (std::size_t step : {kMaskedHello.size(), std::size_t{3}, std::size_t{1}}) {
    ws_decoder d(1 << 20);
    std::vector<ws_message> out;
    std::string reason;
    std::string frame = kMaskedHello;
    for (std::size_t i = 0; i < kMaskedHello.size(); i += step) {
      auto n = std::min(step, kMaskedHello.size() - i);
      REQUIRE(d.feed(frame.data() + i, n, out, reason) == 0);
    }
    REQUIRE(out.size() == 1);
    CHECK(out[0].type == ws_message::kind::text);
    CHECK(out[0].payload == "Hello");
  }
}

TEST_CASE("decoder: two frames in one read give two messages") {
  ws_decoder d(1 << 20);
  std::vector<ws_message> out;
  std::string reason;
  std::string two = kMaskedHello + kMaskedHello;
  REQUIRE(d.feed(two.data(), two.size(), out, reason) == 0);
  CHECK(out.size() == 2);
}

TEST_CASE("decoder: unmasked client frames are a protocol error") {
  ws_decoder d(1 << 20);
  std::vector<ws_message> out;
  std::string reason;
  std::string unmasked("\x81\x05Hello", 7);
  CHECK(d.feed(unmasked.data(), unmasked.size(), out, reason) == close_code::protocol_error);
  CHECK(out.empty());
  std::string hello = kMaskedHello;
  CHECK(d.feed(hello.data(), hello.size(), out, reason) != 0);  // stays failed
}

TEST_CASE("decoder: oversize message gives 1009") {
  ws_decoder d(4);
  std::vector<ws_message> out;
  std::string reason;
  std::string hello = kMaskedHello;
  CHECK(d.feed(hello.data(), hello.size(), out, reason) == close_code::message_too_big);
}

TEST_CASE("decoder: invalid UTF-8 in a text frame gives 1007") {
  // Masked text frame with payload 0xff 0xfe, mask 0.
  std::string frame("\x81\x82\x00\x00\x00\x00\xff\xfe", 8);
  ws_decoder d(1 << 20);
  std::vector<ws_message> out;
  std::string reason;
  CHECK(d.feed(frame.data(), frame.size(), out, reason) == close_code::invalid_payload);
}

TEST_CASE("decoder: ping and close frames") {
  ws_decoder d(1 << 20);
  std::vector<ws_message> out;
  std::string reason;
  std::string ping("\x89\x80\x00\x00\x00\x00", 6);
  std::string close("\x88\x82\x00\x00\x00\x00\x03\xe8", 8);  // code 1000
  REQUIRE(d.feed(ping.data(), ping.size(), out, reason) == 0);
  REQUIRE(d.feed(close.data(), close.size(), out, reason) == 0);
  REQUIRE(out.size() == 2);
  CHECK(out[0].type == ws_message::kind::ping);
  CHECK(out[1].type == ws_message::kind::close);
  CHECK(out[1].close_code == 1000);
}

TEST_CASE("encoders produce unmasked server frames") {
  auto f = encode_text(R"({"jsonrpc":"2.0"})");
  CHECK(static_cast<unsigned char>(f[0]) == 0x81);
  CHECK(static_cast<unsigned char>(f[1]) == 17);
  CHECK(f.substr(2) == R"({"jsonrpc":"2.0"})");
  auto mid = encode_text(std::string(300, 'y'));  // 16-bit length
  REQUIRE(mid.size() == 304);
  CHECK(static_cast<unsigned char>(mid[1]) == 126);
  CHECK(static_cast<unsigned char>(mid[2]) == 0x01);
  CHECK(static_cast<unsigned char>(mid[3]) == 0x2c);
  CHECK(mid.substr(4) == std::string(300, 'y'));
  auto big = encode_text(std::string(70000, 'x'));  // 64-bit length, big-endian
  REQUIRE(big.size() == 70010);
  CHECK(static_cast<unsigned char>(big[1]) == 127);
  CHECK(big.substr(2, 8) == std::string("\0\0\0\0\0\x01\x11\x70", 8));
  CHECK(encode_text("caf\xc3\xa9 \xf0\x9f\x98\x80").size() == 2 + 10);
  // Text frames carry UTF-8 only: invalid or cut-off sequences are not framed.
  CHECK(encode_text("bad \xff").empty());
  CHECK(encode_text("cut \xc3").empty());
  auto c = encode_close(1001, "Server shutting down");
  CHECK(static_cast<unsigned char>(c[0]) == 0x88);
  CHECK(static_cast<unsigned char>(c[2]) == 0x03);
  CHECK(static_cast<unsigned char>(c[3]) == 0xe9);
  CHECK(static_cast<unsigned char>(encode_pong("")[0]) == 0x8a);
}

TEST_CASE("encode_text: the ASCII fast path still refuses invalid UTF-8 wherever it is") {
  const std::string ascii(24, 'a');  // three 8-byte words
  for (std::size_t at = 0; at <= ascii.size(); ++at) {
    CAPTURE(at);
    auto with = [&](std::string_view bytes) { return ascii.substr(0, at) + std::string(bytes) + ascii.substr(at); };
    // A lone continuation byte, an invalid byte, an overlong form, a surrogate: refused.
    CHECK(encode_text(with("\x80")).empty());
    CHECK(encode_text(with("\xff")).empty());
    CHECK(encode_text(with("\xc0\xaf")).empty());
    CHECK(encode_text(with("\xed\xa0\x80")).empty());
    // Valid two-, three- and four-byte characters anywhere: framed as they are.
    for (std::string_view ok : {"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80"}) {
      auto payload = with(ok);
      auto frame = encode_text(payload);
      REQUIRE(frame.size() == 2 + payload.size());
      CHECK(frame.substr(2) == payload);
    }
  }
  // A multi-byte character cut at the end, after a long ASCII run or inside the last word.
  for (std::size_t n = 0; n <= 17; ++n) {
    CAPTURE(n);
    CHECK(encode_text(std::string(n, 'a') + "\xe2\x82").empty());
    CHECK(encode_text(std::string(n, 'a') + "\xf0\x9f\x98").empty());
  }
  CHECK(encode_text("").size() == 2);
}

TEST_CASE("request parser: whitespace before a colon, obs-fold and unreadable lengths are 400, however the head is cut") {
  // Each is refused whole, split in two at every byte, and fed one byte at a time.
  auto status_when_fed = [](const std::string& raw, std::size_t cut) {
    request_parser p;
    std::size_t at = 0;
    while (at < raw.size() && p.current() == request_parser::state::need_more) {
      std::size_t n = cut == 0 ? raw.size() - at : (at < cut ? cut - at : raw.size() - at);
      if (cut == std::string::npos) n = 1;
      auto used = p.feed(raw.data() + at, n);
      if (used == 0 && p.current() == request_parser::state::need_more) break;
      at += used;
    }
    return p.current() == request_parser::state::rejected ? p.reject_status() : 0;
  };
  const std::string start = "POST /mcp HTTP/1.1\r\nHost: x\r\n";
  for (const std::string& lines : {
           std::string("Content-Length : 5\r\n"),
           std::string("Content-Length\t: 5\r\n"),
           std::string("Transfer-Encoding : chunked\r\n"),
           std::string("X-A: 1\r\n Authorization: Bearer s\r\n"),
           std::string("X-A: 1\r\n\tcontinued\r\n"),
           std::string("Content-Length:\r\n"),
           std::string("Content-Length: -1\r\n"),
           std::string("Content-Length: +5\r\n"),
           std::string("Content-Length: 99999999999999999999999 5\r\n"),
       }) {
    const std::string raw = start + lines + "\r\nhello";
    for (std::size_t cut = 0; cut <= raw.size(); ++cut) {
      CAPTURE(lines);
      CAPTURE(cut);
      CHECK(status_when_fed(raw, cut) == 400);
    }
    CHECK(status_when_fed(raw, std::string::npos) == 400);
  }
  // Whitespace after the colon and inside values is fine, as is a request line with spaces.
  for (const std::string& lines : {std::string("Content-Length:\t5 \r\nX-B: a b\tc\r\n"), std::string("content-length:5\r\n")}) {
    const std::string raw = start + lines + "\r\nhello";
    request_parser p;
    CHECK(p.feed(raw.data(), raw.size()) == raw.size() - 5);
    REQUIRE(p.head_complete());
    CHECK(p.feed(raw.data() + raw.size() - 5, 5) == 5);
    CHECK(p.current() == request_parser::state::done);
  }
}

TEST_CASE("request headers: looked up in any case, repeated fields joined, names kept lowercase") {
  auto req = parse_all(
      "POST /mcp HTTP/1.1\r\nHost: localhost\r\nMCP-Session-Id: abc\r\nAccept: application/json\r\n"
      "accept: text/event-stream\r\nX-Empty:\r\nContent-Length: 2\r\n\r\n{}");
  CHECK(req.header("mcp-session-id") == "abc");
  CHECK(req.header("Mcp-Session-Id") == "abc");
  CHECK(req.header("MCP-SESSION-ID") == "abc");
  CHECK(req.header("Accept") == "application/json, text/event-stream");
  CHECK(req.has_header("x-empty"));
  CHECK(req.header("X-Empty").empty());
  CHECK_FALSE(req.has_header("Origin"));
  CHECK_FALSE(req.has_header("Mcp-Session-I"));
  CHECK_FALSE(req.has_header("Mcp-Session-Ix"));  // same length and first eight bytes
  CHECK_FALSE(req.has_header("Mcp-Sessiom-Id"));
  CHECK_FALSE(req.has_header("Hosx"));
  CHECK_FALSE(req.has_header("Hos"));
  CHECK_FALSE(req.has_header(""));
  CHECK(req.header("HOST") == "localhost");
  CHECK(req.header("x-EMPTY").empty());
  CHECK(req.header("Origin").empty());
  CHECK(req.body == "{}");
  bool saw_session = false;
  for (std::size_t i = 0; i < req.header_count(); ++i) {
    auto [name, value] = req.header_at(i);
    for (char c : name) CHECK_FALSE((c >= 'A' && c <= 'Z'));
    if (name == "mcp-session-id") saw_session = value == "abc";
  }
  CHECK(saw_session);
  // A copy (offsets, not views into the original) answers the same.
  http_request copy = req;
  req = http_request();
  CHECK(copy.header("host") == "localhost");
  // Connection tokens in any case.
  CHECK_FALSE(parse_all("GET / HTTP/1.1\r\nHost: x\r\nConnection: CLOSE\r\n\r\n").keep_alive());
  CHECK(parse_all("GET / HTTP/1.0\r\nHost: x\r\nConnection: Keep-Alive\r\n\r\n").keep_alive());
  CHECK_FALSE(parse_all("GET / HTTP/1.0\r\nHost: x\r\n\r\n").keep_alive());
}

TEST_CASE("request parser: a body arriving in pieces ends exactly at Content-Length; the next request's bytes stay") {
  const std::string raw = "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 7\r\n\r\nabcdefgGET / HTTP/1.1\r\n";
  request_parser p;
  std::size_t used = p.feed(raw.data(), raw.size());
  REQUIRE(p.head_complete());
  for (std::size_t i = 0; i < 3; ++i) used += p.feed(raw.data() + used, 1);
  CHECK(p.current() == request_parser::state::need_more);
  used += p.feed(raw.data() + used, raw.size() - used);
  REQUIRE(p.current() == request_parser::state::done);
  CHECK(raw.substr(used) == "GET / HTTP/1.1\r\n");
  CHECK(p.feed(raw.data() + used, raw.size() - used) == 0);
  CHECK(p.take().body == "abcdefg");
  p.reset();
  CHECK(p.announced_body_bytes() == 0);
}
