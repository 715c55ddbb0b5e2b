// Server-Sent Events decoding: the field rules of the standard, every line ending, events
// split across reads, comments, and the size bound.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "net/sse_parser.hpp"

using namespace opentabs;
using namespace opentabs::net;

namespace {

std::vector<sse_event> parse(const std::string& text, std::size_t step = 0) {
  sse_parser p;
  std::vector<sse_event> out;
  if (step == 0) step = text.size();
  for (std::size_t i = 0; i < text.size(); i += step) REQUIRE(p.feed(std::string_view(text).substr(i, step), out).ok());
  return out;
}

}  // namespace

TEST_CASE("MCP-style message events, whole and byte by byte") {
  const std::string text =
      "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n"
      "event: message\nid: 7\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n";
  for (std::size_t step : {0, 1, 5}) {
    auto events = parse(text, step);
    REQUIRE(events.size() == 2);
    CHECK(events[0].event == "message");
    CHECK(events[0].data == "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}");
    CHECK(events[1].id == "7");
    CHECK(events[1].data == "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
  }
}

TEST_CASE("CRLF and lone CR line endings, also when CR and LF arrive in separate reads") {
  auto crlf = parse("data: a\r\ndata: b\r\n\r\n", 1);
  REQUIRE(crlf.size() == 1);
  CHECK(crlf[0].data == "a\nb");
  auto cr = parse("data: x\r\rdata: y\r\r");
  REQUIRE(cr.size() == 2);
  CHECK(cr[0].data == "x");
  CHECK(cr[1].data == "y");
}

TEST_CASE("comments, unknown fields, no-space values and retry") {
  auto events = parse(": keep-alive\n\nfoo: bar\ndata:tight\nretry: 1500\nevent: custom\n\n");
  REQUIRE(events.size() == 1);
  CHECK(events[0].data == "tight");
  CHECK(events[0].event == "custom");
  REQUIRE(events[0].retry_ms.has_value());
  CHECK(*events[0].retry_ms == 1500);
}

TEST_CASE("an event without data is not dispatched, but its id is remembered") {
  sse_parser p;
  std::vector<sse_event> out;
  REQUIRE(p.feed("id: 42\n\n", out).ok());
  CHECK(out.empty());
  CHECK(p.last_event_id() == "42");
}

TEST_CASE("an unfinished event stays pending until its blank line") {
  sse_parser p;
  std::vector<sse_event> out;
  REQUIRE(p.feed("data: one\n", out).ok());
  CHECK(out.empty());
  REQUIRE(p.feed("\n", out).ok());
  CHECK(out.size() == 1);
}

TEST_CASE("a leading byte order mark is ignored") {
  auto events = parse("\xEF\xBB\xBF" "data: z\n\n", 1);
  REQUIRE(events.size() == 1);
  CHECK(events[0].data == "z");
}

TEST_CASE("lines and events beyond the bound are refused") {
  sse_parser p(16);
  std::vector<sse_event> out;
  auto st = p.feed("data: " + std::string(40, 'x'), out);
  REQUIRE_FALSE(st.ok());
  CHECK(st.err().code() == "too_large");
  sse_parser q(16);
  std::vector<sse_event> out2;
  auto st2 = q.feed("data: 0123456789\ndata: 0123456789\n", out2);
  REQUIRE_FALSE(st2.ok());
  CHECK(st2.err().code() == "too_large");
}
