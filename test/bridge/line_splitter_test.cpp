// Newline-delimited stdin: lines split anywhere, CRLF, blank lines, an unterminated last
// line, and the bound (an oversized line is dropped and the stream resynchronises).
#include <doctest/doctest.h>

#include "bridge/line_splitter.hpp"

using namespace opentabs::bridge;

TEST_CASE("lines split at every byte boundary come out whole") {
  const std::string input = "{\"a\":1}\r\n\n  \n{\"b\":2}\n{\"c\":3}";
  for (std::size_t step : {1, 2, 5, 100}) {
    line_splitter s;
    line_splitter::output out;
    for (std::size_t i = 0; i < input.size(); i += step) s.feed(std::string_view(input).substr(i, step), out);
    CHECK(out.lines == std::vector<std::string>{"{\"a\":1}", "{\"b\":2}"});
    s.finish(out);
    CHECK(out.lines.back() == "{\"c\":3}");
    CHECK(out.oversized == 0);
  }
}

TEST_CASE("an oversized line is dropped once and the next line survives") {
  line_splitter s(8);
  line_splitter::output out;
  s.feed("0123456789", out);  // over the limit before its newline
  s.feed("abcdef\n{\"ok\":1}\n", out);
  CHECK(out.oversized == 1);
  CHECK(out.lines == std::vector<std::string>{"{\"ok\":1}"});
}

TEST_CASE("a line exactly at the limit is kept") {
  line_splitter s(8);
  line_splitter::output out;
  s.feed("12345678\n", out);
  CHECK(out.lines == std::vector<std::string>{"12345678"});
  CHECK(out.oversized == 0);
}
