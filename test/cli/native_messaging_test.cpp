// Chrome's native-messaging framing: encoding with the 1 MiB host→browser limit, and the
// reader's handling of arbitrary chunking, oversized messages (skipped, then reported) and
// bad JSON.
#include <doctest/doctest.h>

#include <cstring>

#include "cli/native_messaging.hpp"

using namespace opentabs;
using namespace opentabs::cli::native;

namespace {
std::string frame_of(std::string_view body) {
  std::uint32_t n = static_cast<std::uint32_t>(body.size());
  std::string out(4, '\0');
  std::memcpy(out.data(), &n, 4);
  return out + std::string(body);
}
}  // namespace

TEST_CASE("a frame is a native-endian 4-byte length and the body") {
  auto f = encode_frame(R"({"type":"ping"})");
  REQUIRE(f);
  CHECK(f->size() == 4 + 15);
  std::uint32_t n = 0;
  std::memcpy(&n, f->data(), 4);
  CHECK(n == 15);
  CHECK(f->substr(4) == R"({"type":"ping"})");
  auto m = encode_message(json::object{{"type", "pong"}});
  REQUIRE(m);
  CHECK(m->substr(4) == R"({"type":"pong"})");
}

TEST_CASE("host→browser messages over 1 MiB are refused") {
  CHECK(encode_frame(std::string(kMaxHostToBrowser, 'x')));
  auto big = encode_frame(std::string(kMaxHostToBrowser + 1, 'x'));
  REQUIRE_FALSE(big);
  CHECK(big.err().code() == "too_large");
  CHECK(big.err().message.find("1 MiB") != std::string::npos);
}

TEST_CASE("the reader reassembles frames from any chunking") {
  std::string stream = frame_of(R"({"type":"ping","id":1})") + frame_of(R"({"type":"getServer","start":true})");
  for (std::size_t chunk : {1u, 2u, 3u, 5u, 7u, 1000u}) {
    frame_reader r;
    for (std::size_t i = 0; i < stream.size(); i += chunk) r.feed(std::string_view(stream).substr(i, chunk));
    auto a = r.next();
    auto b = r.next();
    REQUIRE(a);
    REQUIRE(b);
    CHECK(a->what == incoming::kind::message);
    CHECK(json::dump(a->message) == R"({"type":"ping","id":1})");
    CHECK(json::get_bool(b->message, "start") == true);
    CHECK_FALSE(r.next());
    CHECK_FALSE(r.mid_frame());
  }
}

TEST_CASE("an oversized message is skipped without buffering and reported; the next one still works") {
  frame_reader r(100);
  std::string big(5000, 'a');
  r.feed(frame_of(big).substr(0, 2000));
  CHECK_FALSE(r.next());
  CHECK(r.mid_frame());
  r.feed(frame_of(big).substr(2000) + frame_of(R"({"type":"ping"})"));
  auto first = r.next();
  REQUIRE(first);
  CHECK(first->what == incoming::kind::too_large);
  CHECK(first->length == 5000);
  CHECK(first->error == "message of 5000 bytes exceeds the host's limit of 100 bytes");
  auto second = r.next();
  REQUIRE(second);
  CHECK(second->what == incoming::kind::message);
}

TEST_CASE("bad JSON and non-objects are reported as bad_json, naming the problem") {
  frame_reader r;
  r.feed(frame_of("{not json") + frame_of("[1,2]") + frame_of(""));
  for (int i = 0; i < 3; ++i) {
    auto in = r.next();
    REQUIRE(in);
    CHECK(in->what == incoming::kind::bad_json);
    CHECK(in->error.rfind("message is not a JSON object: ", 0) == 0);
  }
}

TEST_CASE("input that ends inside a frame is visible as mid_frame") {
  frame_reader r;
  r.feed(std::string("\x10\x00", 2));
  CHECK(r.mid_frame());
  CHECK_FALSE(r.next());
}
