// util/base64: the RFC 4648 test vectors, optional padding, skipped line breaks, and
// rejection of characters outside the alphabet.
#include <doctest/doctest.h>

#include <string>

#include "util/base64.hpp"

using namespace opentabs;

TEST_CASE("base64 decodes the RFC 4648 test vectors") {
  CHECK(decode_base64("").value() == "");
  CHECK(decode_base64("Zg==").value() == "f");
  CHECK(decode_base64("Zm8=").value() == "fo");
  CHECK(decode_base64("Zm9v").value() == "foo");
  CHECK(decode_base64("Zm9vYg==").value() == "foob");
  CHECK(decode_base64("Zm9vYmE=").value() == "fooba");
  CHECK(decode_base64("Zm9vYmFy").value() == "foobar");
}

TEST_CASE("base64 padding is optional and ends the data") {
  CHECK(decode_base64("aGVsbG8=").value() == "hello");
  CHECK(decode_base64("aGVsbG8").value() == "hello");
  CHECK(decode_base64("Zg==ignored").value() == "f");
}

TEST_CASE("base64 keeps binary bytes and skips line breaks") {
  CHECK(decode_base64("AP8A/w==").value() == std::string("\x00\xff\x00\xff", 4));
  CHECK(decode_base64("+/+/").value() == "\xfb\xff\xbf");
  CHECK(decode_base64("Zm9v\r\nYmFy\n").value() == "foobar");
}

TEST_CASE("base64 refuses characters outside the standard alphabet") {
  CHECK_FALSE(decode_base64("a*b").has_value());
  CHECK_FALSE(decode_base64("Zm9v YmFy").has_value());
  CHECK_FALSE(decode_base64("Zm9v-_").has_value());  // the URL-safe alphabet is not accepted
  CHECK_FALSE(decode_base64("Zm9v\t").has_value());
}

TEST_CASE("base64 encodes the RFC 4648 test vectors with padding, and decoding gives the bytes back") {
  CHECK(encode_base64("") == "");
  CHECK(encode_base64("f") == "Zg==");
  CHECK(encode_base64("fo") == "Zm8=");
  CHECK(encode_base64("foo") == "Zm9v");
  CHECK(encode_base64("foob") == "Zm9vYg==");
  CHECK(encode_base64("fooba") == "Zm9vYmE=");
  CHECK(encode_base64("foobar") == "Zm9vYmFy");
  const std::string binary("\x00\xff\x10\x80\x7f", 5);
  CHECK(decode_base64(encode_base64(binary)) == binary);
}
