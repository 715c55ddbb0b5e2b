#include <doctest/doctest.h>
#include <zlib.h>

#include <string>

#include "codec/gzip.hpp"

using namespace opentabs::codec;

namespace {

// Inflates one whole gzip member with zlib (as a client would); "" plus a failed check when
// the member is malformed or has bytes after its end.
std::string gunzip(const std::string& in) {
  z_stream z{};
  REQUIRE(inflateInit2(&z, 16 + 15) == Z_OK);  // gzip wrapper only
  std::string out(in.size() * 4 + 1024, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  int rc = Z_OK;
  std::size_t used = 0;
  while (rc == Z_OK) {
    if (used == out.size()) out.resize(out.size() * 2);
    z.next_out = reinterpret_cast<Bytef*>(out.data() + used);
    z.avail_out = static_cast<uInt>(out.size() - used);
    const uInt before = z.avail_out;
    rc = inflate(&z, Z_NO_FLUSH);
    used += before - z.avail_out;
  }
  CHECK(rc == Z_STREAM_END);  // the CRC-32 and length in the trailer matched
  CHECK(z.avail_in == 0);
  inflateEnd(&z);
  out.resize(used);
  return out;
}

std::string listing(int tools) {
  std::string s = R"({"result":{"tools":[)";
  for (int i = 0; i < tools; ++i) {
    if (i) s += ',';
    s += R"({"name":"plugin)" + std::to_string(i % 120) + "_tool_" + std::to_string(i / 120) +
         R"(","description":"does thing )" + std::to_string(i * 7919 % 1000) + R"(","inputSchema":{"type":"object"}})";
  }
  return s + "]}";
}

}  // namespace

TEST_CASE("gzip_prefix: head compressed once, each finish is a whole gzip member of head + tail") {
  const std::string head = listing(3600);
  gzip_prefix gz(head);
  CHECK(gz.compressed_bytes() < head.size() / 4);
  for (std::string tail : {std::string(R"(,"jsonrpc":"2.0","id":1})"), std::string(R"(,"jsonrpc":"2.0","id":"abc\"def"})"),
                           std::string()}) {
    const auto body = gz.finish(tail);
    CHECK(body.substr(0, 3) == "\x1f\x8b\x08");
    CHECK(gunzip(body) == head + tail);
  }
}

TEST_CASE("gzip_prefix: a tail longer than one stored block, an empty head, binary bytes") {
  std::string tail(200'000, 'x');
  for (std::size_t i = 0; i < tail.size(); ++i) tail[i] = static_cast<char>(i * 31 % 251);
  CHECK(gunzip(gzip_prefix(std::string("head")).finish(tail)) == "head" + tail);
  CHECK(gunzip(gzip_prefix(std::string()).finish("only the tail")) == "only the tail");
  CHECK(gunzip(gzip_prefix(std::string()).finish("")).empty());
  std::string exact(65535, 'y');
  CHECK(gunzip(gzip_prefix(std::string("h")).finish(exact)) == "h" + exact);
}

TEST_CASE("accepts_gzip: codings and qualities of Accept-Encoding") {
  CHECK(accepts_gzip("gzip, deflate"));        // Node fetch (undici), Python httpx
  CHECK(accepts_gzip("br, gzip, deflate"));
  CHECK(accepts_gzip("GZIP"));
  CHECK(accepts_gzip("x-gzip"));
  CHECK(accepts_gzip("deflate;q=0.5, gzip;q=0.1"));
  CHECK(accepts_gzip("*"));
  CHECK(accepts_gzip(" gzip ; q=1.0 "));
  CHECK_FALSE(accepts_gzip(""));
  CHECK_FALSE(accepts_gzip("identity"));
  CHECK_FALSE(accepts_gzip("deflate, br"));
  CHECK_FALSE(accepts_gzip("gzip;q=0"));
  CHECK_FALSE(accepts_gzip("gzip;q=0.000"));
  CHECK_FALSE(accepts_gzip("*, gzip;q=0"));
  CHECK_FALSE(accepts_gzip("*;q=0"));
  CHECK_FALSE(accepts_gzip("gzipx"));
  CHECK(accepts_gzip("gzip;q=0.001"));
}
