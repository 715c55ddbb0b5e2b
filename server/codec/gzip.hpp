// gzip (RFC 1952) for a large response body that is sent often and unchanged: the
// tools/list of thousands of tools.  Its JSON is compressed once (`gzip_prefix`); each
// response is then that compressed prefix plus a short tail sent stored (the JSON-RPC id
// and the closing brace), so answering costs a copy of the compressed bytes (tens of
// KiB) instead of copying and sending megabytes.  Also the Accept-Encoding check that
// decides whether a client may be sent gzip.  The one place zlib is used.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace opentabs::codec {

class gzip_prefix {
 public:
  gzip_prefix() = default;
  // Compresses `head` (zlib level 1: rebuilt on every tool-set change, so speed matters
  // more than the last few percent of size).
  explicit gzip_prefix(std::string_view head);

  // One complete gzip member whose uncompressed data is head + tail.
  std::string finish(std::string_view tail) const;

  std::size_t compressed_bytes() const { return bytes_.size(); }

 private:
  std::string bytes_;  // gzip header + raw deflate blocks of head, byte-aligned, not final
  std::uint32_t crc_ = 0;
  std::uint64_t size_ = 0;
};

// Whether an Accept-Encoding value (RFC 9110 §12.5.3) lets the response be gzip: "gzip"
// (or "x-gzip") with a non-zero quality, or "*" with a non-zero quality when gzip is not
// named.  An empty or absent header means identity only.
bool accepts_gzip(std::string_view accept_encoding);

}  // namespace opentabs::codec
