#include "codec/gzip.hpp"

#include <zlib.h>

#include <algorithm>
#include <stdexcept>

namespace opentabs::codec {

namespace {

void put_le(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

std::uint32_t crc_of(std::string_view data) {
  uLong crc = crc32(0L, Z_NULL, 0);
  while (!data.empty()) {
    auto n = static_cast<uInt>(std::min<std::size_t>(data.size(), 1u << 30));
    crc = crc32(crc, reinterpret_cast<const Bytef*>(data.data()), n);
    data.remove_prefix(n);
  }
  return static_cast<std::uint32_t>(crc);
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// q=0, 0., 0.0, 0.00, 0.000 refuse the coding (RFC 9110 §12.4.2); anything else accepts.
bool zero_quality(std::string_view q) {
  if (q.empty() || q[0] != '0') return false;
  q.remove_prefix(1);
  if (q.empty()) return true;
  if (q[0] != '.' || q.size() > 4) return false;
  return q.substr(1).find_first_not_of('0') == std::string_view::npos;
}

}  // namespace

gzip_prefix::gzip_prefix(std::string_view head) : crc_(crc_of(head)), size_(head.size()) {
  z_stream z{};
  // Raw deflate (negative window bits): the gzip header and trailer are written here.
  if (deflateInit2(&z, 1, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) throw std::runtime_error("zlib: deflateInit2 failed");
  // Header: magic, deflate, no flags, no mtime, no extra flags, OS unknown.
  bytes_.assign("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff", 10);
  std::size_t used = bytes_.size();
  bytes_.resize(used + deflateBound(&z, static_cast<uLong>(std::min<std::size_t>(head.size(), 1u << 30))) + 64);
  int rc = Z_OK;
  while (true) {
    const auto in = static_cast<uInt>(std::min<std::size_t>(head.size(), 1u << 30));
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(head.data()));
    z.avail_in = in;
    // Z_SYNC_FLUSH ends on a byte boundary without a final block, so stored blocks
    // (the tail) can follow.
    const int flush = in == head.size() ? Z_SYNC_FLUSH : Z_NO_FLUSH;
    do {
      if (used == bytes_.size()) bytes_.resize(bytes_.size() * 2);
      z.next_out = reinterpret_cast<Bytef*>(bytes_.data() + used);
      z.avail_out = static_cast<uInt>(std::min<std::size_t>(bytes_.size() - used, 1u << 30));
      const uInt before = z.avail_out;
      rc = deflate(&z, flush);
      used += before - z.avail_out;
    } while (rc == Z_OK && (z.avail_in > 0 || z.avail_out == 0));
    head.remove_prefix(in);
    if (rc != Z_OK && rc != Z_BUF_ERROR) break;
    if (head.empty()) break;
  }
  deflateEnd(&z);
  if (rc != Z_OK && rc != Z_BUF_ERROR) throw std::runtime_error("zlib: deflate failed");
  bytes_.resize(used);
}

std::string gzip_prefix::finish(std::string_view tail) const {
  constexpr std::size_t max_stored = 65535;
  std::string out;
  out.reserve(bytes_.size() + tail.size() + 5 * (tail.size() / max_stored + 1) + 8);
  out = bytes_;
  // The tail as stored blocks (RFC 1951 §3.2.4), the last one final.
  std::size_t off = 0;
  do {
    const std::size_t n = std::min(max_stored, tail.size() - off);
    const bool last = off + n == tail.size();
    out.push_back(last ? '\x01' : '\x00');
    put_le(out, n, 2);
    put_le(out, ~n & 0xffff, 2);
    out.append(tail.substr(off, n));
    off += n;
  } while (off < tail.size());
  const auto crc = crc32_combine(crc_, crc_of(tail), static_cast<z_off_t>(tail.size()));
  put_le(out, static_cast<std::uint32_t>(crc), 4);
  put_le(out, (size_ + tail.size()) & 0xffffffffu, 4);
  return out;
}

bool accepts_gzip(std::string_view accept_encoding) {
  bool gzip_named = false, gzip_ok = false, star_ok = false;
  while (!accept_encoding.empty()) {
    const auto comma = accept_encoding.find(',');
    std::string_view item = accept_encoding.substr(0, comma);
    accept_encoding = comma == std::string_view::npos ? std::string_view() : accept_encoding.substr(comma + 1);
    const auto semi = item.find(';');
    const std::string_view coding = trim(item.substr(0, semi));
    bool ok = true;
    for (std::string_view params = semi == std::string_view::npos ? std::string_view() : item.substr(semi + 1); !params.empty();) {
      const auto next = params.find(';');
      std::string_view p = trim(params.substr(0, next));
      params = next == std::string_view::npos ? std::string_view() : params.substr(next + 1);
      if (p.size() >= 2 && lower(p[0]) == 'q' && p[1] == '=') ok = !zero_quality(trim(p.substr(2)));
    }
    if (iequals(coding, "gzip") || iequals(coding, "x-gzip")) {
      gzip_named = true;
      gzip_ok = ok;
    } else if (coding == "*") {
      star_ok = ok;
    }
  }
  return gzip_named ? gzip_ok : star_ok;
}

}  // namespace opentabs::codec
