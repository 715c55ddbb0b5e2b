// SHA-256 against the FIPS 180-4 / NIST test vectors.
#include "util/sha256.hpp"

#include <doctest/doctest.h>

#include <string>

using opentabs::sha256;
using opentabs::sha256_hex;

TEST_CASE("NIST vectors") {
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(sha256_hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu") ==
        "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
  CHECK(sha256_hex(std::string(1000000, 'a')) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("incremental updates equal one update, across block boundaries") {
  std::string data;
  for (int i = 0; i < 1000; ++i) data += static_cast<char>(i * 7);
  for (std::size_t split : {0u, 1u, 55u, 56u, 63u, 64u, 65u, 127u, 999u}) {
    sha256 h;
    h.update(std::string_view(data).substr(0, split));
    h.update(std::string_view(data).substr(split));
    auto d = h.finish();
    std::string hex;
    for (auto b : d) {
      static const char* x = "0123456789abcdef";
      hex += x[b >> 4];
      hex += x[b & 15];
    }
    CHECK(hex == sha256_hex(data));
  }
}
