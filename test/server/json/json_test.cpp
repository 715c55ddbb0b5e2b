#include <doctest/doctest.h>

#include <optional>

#include <cstdint>
#include <string>

#include "json/json.hpp"
#include "json/validate.hpp"

using namespace opentabs;

TEST_CASE("parse accepts one object and reads typed fields") {
  auto v = json::parse_object(R"({"a":1,"b":"x","c":true,"d":2.0,"e":{"f":[1]}})");
  REQUIRE(v.ok());
  CHECK(json::get_int(*v, "a") == 1);
  CHECK(*json::get_string(*v, "b") == "x");
  CHECK(json::get_bool(*v, "c") == true);
  CHECK(json::get_int(*v, "d") == 2);
  CHECK(json::get_object(*v, "e") != nullptr);
  CHECK(json::get_string(*v, "a") == nullptr);
  CHECK_FALSE(json::get_int(*v, "missing").has_value());
}

TEST_CASE("parse errors name the position") {
  auto v = json::parse("{\n  \"a\": 1,\n  oops\n}");
  REQUIRE_FALSE(v.ok());
  CHECK(v.err().code() == "parse_error");
  CHECK(v.err().message.find("line 3") != std::string::npos);
}

TEST_CASE("trailing data, non-objects, depth and size limits are rejected") {
  CHECK_FALSE(json::parse("{} {}").ok());
  CHECK(json::parse_object("[1,2]").err().is(errc::invalid_request));
  std::string deep(100, '[');
  deep += std::string(100, ']');
  CHECK_FALSE(json::parse(deep, {.max_bytes = 1000, .max_depth = 64}).ok());
  CHECK(json::parse("[1,2,3]", {.max_bytes = 3, .max_depth = 8}).err().code() == "too_large");
}

TEST_CASE("invalid UTF-8 inside strings is rejected") {
  std::string bad = "{\"a\":\"\xff\xfe\"}";
  CHECK_FALSE(json::parse(bad).ok());
}

TEST_CASE("dump is compact and dump_pretty indents") {
  json::object o{{"a", 1}, {"b", json::array{1, 2}}};
  CHECK(json::dump(o) == R"({"a":1,"b":[1,2]})");
  CHECK(json::dump_pretty(o) == "{\n  \"a\": 1,\n  \"b\": [\n    1,\n    2\n  ]\n}\n");
}

TEST_CASE("dump_pretty writes empty containers inline and nests objects in arrays") {
  CHECK(json::dump_pretty(json::object{}) == "{}\n");
  CHECK(json::dump_pretty(json::array{}) == "[]\n");
  json::object o{{"e", json::object{}}, {"l", json::array{json::object{{"k", "v"}}, json::array{}}}};
  CHECK(json::dump_pretty(o) ==
        "{\n  \"e\": {},\n  \"l\": [\n    {\n      \"k\": \"v\"\n    },\n    []\n  ]\n}\n");
}

TEST_CASE("numbers that overflow a double are refused, not turned into Infinity") {
  auto v = json::parse(R"({"n":1e999})");
  REQUIRE_FALSE(v.ok());
  CHECK(v.err().message.find("range") != std::string::npos);
  CHECK_FALSE(json::parse("[-1e400]").ok());
  CHECK(json::parse("[1e300, -2.5e-300]").ok());
}

TEST_CASE("validate: one JSON text with parse()'s limits, small or large") {
  using namespace opentabs;
  const json::parse_limits lim;
  CHECK(json::validate(R"({"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"}]}})", lim).ok());
  CHECK(json::validate(" [1, 2.5, null, true] ", lim).ok());
  CHECK(json::validate("{\"a\":", lim).err().code() == "parse_error");
  CHECK(json::validate("{} {}", lim).err().message.find("unexpected data") != std::string::npos);
  CHECK(json::validate("[1e999]", lim).err().code() == "parse_error");  // not finite, as parse()
  CHECK(json::validate("[[[1]]]", json::parse_limits{.max_bytes = 100, .max_depth = 2}).err().code() == "parse_error");
  CHECK(json::validate("[1,2,3]", json::parse_limits{.max_bytes = 3, .max_depth = 8}).err().code() == "too_large");
  // Larger than the stack scratch: continues on the heap.
  std::string big = "[";
  for (int i = 0; i < 20000; ++i) big += (i ? ",\"" : "\"") + std::to_string(i) + "\"";
  big += "]";
  CHECK(json::validate(big, lim).ok());
}

// append_quoted / quote write strings by hand on hot paths: they must produce exactly the
// bytes Boost.JSON's serializer writes, for every byte value and mixed with UTF-8.
TEST_CASE("append_quoted escapes every byte exactly as dump() does") {
  for (int c = 0; c < 256; ++c) {
    std::string s = "a";
    s += static_cast<char>(c);
    s += "b";
    std::string mine = "prefix";
    json::append_quoted(mine, s);
    CHECK(mine == "prefix" + json::dump(json::str(s)));
    CHECK(json::quote(s) == json::dump(json::str(s)));
  }
  // Every byte at every position of a longer string (the eight-bytes-at-a-time scan).
  for (int c = 0; c < 256; ++c)
    for (std::size_t at = 0; at < 20; ++at) {
      std::string s = "0123456789abcdefghij";
      s[at] = static_cast<char>(c);
      std::string mine;
      json::append_quoted(mine, s);
      REQUIRE(mine == json::dump(json::str(s)));
    }
  for (std::string s : {std::string(), std::string("\"\\\"\\"), std::string("\x01\x1f\x7f", 3), std::string("\0x\0", 3),
                        std::string("héllo – 日本語 🙂 \xff\xfe broken \xc3"), std::string("line\nnext\r\ttab\b\f/slash</script>")}) {
    std::string mine;
    json::append_quoted(mine, s);
    CHECK(mine == json::dump(json::str(s)));
  }
}

TEST_CASE("append_dump appends exactly dump()'s text, large and nested values included") {
  auto v = json::parse(R"({"a":[1,2.5,-3,1e300,"x\n\u0001é"],"b":{"c":{"d":[[],{}]}},"e":null,"f":true,"g":18446744073709551615})");
  REQUIRE(v.ok());
  std::string out = "<";
  json::append_dump(out, *v);
  CHECK(out == "<" + json::dump(*v));
  std::string obj;
  json::append_dump(obj, v->get_object());
  CHECK(obj == json::dump(v->get_object()));
  std::string arr;
  json::append_dump(arr, v->get_object().at("a").get_array());
  CHECK(arr == json::dump(json::value(v->get_object().at("a").get_array())));
  // More than the serializer's stack buffer.
  json::array big;
  for (int i = 0; i < 5000; ++i) big.push_back(json::str("item " + std::to_string(i) + " \"quoted\""));
  std::string big_out;
  json::append_dump(big_out, big);
  CHECK(big_out == json::dump(json::value(big)));
}

TEST_CASE("parse into an arena: the same values, and copies assigned out of it outlive it") {
  json::object kept;
  json::value kept_id;
  {
    json::arena memory;
    const std::string text = R"({"jsonrpc":"2.0","id":"a-rather-long-request-id-0001","params":{"arguments":{"q":"a string longer than the inline size","n":[1,2,3]}}})";
    auto v = json::parse(text, memory);
    REQUIRE(v.ok());
    CHECK(json::dump(*v) == json::dump(*json::parse(text)));
    kept = v->get_object().at("params").get_object().at("arguments").get_object();
    kept_id = v->get_object().at("id");
    CHECK(*kept.storage() == *json::object().storage());
    CHECK(json::parse("[1,", memory).err().code() == "parse_error");
  }
  CHECK(json::dump(kept) == R"({"q":"a string longer than the inline size","n":[1,2,3]})");
  CHECK(kept_id == "a-rather-long-request-id-0001");
}

TEST_CASE("copy_out: a copy constructed out of an arena lives in the default storage") {
  std::optional<json::value> kept;
  {
    json::arena memory;
    auto v = json::parse(R"({"method":"initialize","params":{"clientInfo":{"name":"a name longer than sixteen bytes"}}})", memory);
    REQUIRE(v.ok());
    CHECK_FALSE(*json::value(*v).storage() == *json::value().storage());  // the plain copy stays in the arena
    kept.emplace(json::copy_out(*v));
    CHECK(*kept->storage() == *json::value().storage());
  }
  CHECK(json::dump(*kept) == R"({"method":"initialize","params":{"clientInfo":{"name":"a name longer than sixteen bytes"}}})");
}

TEST_CASE("append_dump writes integers and strings exactly as dump() does") {
  for (const json::value& v : {json::value(0), json::value(-1), json::value(INT64_MIN), json::value(INT64_MAX),
                               json::value(std::uint64_t(18446744073709551615ull)), json::value(std::uint64_t(0)),
                               json::value(42), json::str("id \"x\"\n"), json::str(""), json::value(1.5), json::value(nullptr),
                               json::value(true)}) {
    std::string out = "x";
    json::append_dump(out, v);
    CHECK(out == "x" + json::dump(v));
  }
}
