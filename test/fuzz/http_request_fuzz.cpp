// libFuzzer target: the HTTP request path before any route runs — codec::request_parser fed
// in two pieces (the split point comes from the input, so partial reads are exercised), then
// everything a route asks of the parsed request (headers, query parameters, keep-alive,
// percent-decoding) and the WebSocket handshake checks done on it.
#include <cstddef>
#include <cstdint>
#include <string>

#include "codec/http_request.hpp"
#include "codec/ws_codec.hpp"

namespace codec = opentabs::codec;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t split = data[0] % (size);  // first byte: where the "socket read" breaks
  const char* text = reinterpret_cast<const char*>(data + 1);
  const std::size_t len = size - 1;

  codec::request_parser parser(codec::parse_limits{.max_body_bytes = 64 * 1024});
  std::size_t offset = 0;
  // Pipelined requests: keep parsing what follows a complete request, like a keep-alive
  // connection does, for as long as bytes remain and each step consumes something.
  for (int round = 0; round < 8 && offset <= len; ++round) {
    const std::size_t first = std::min(split, len - offset);
    std::size_t used = parser.feed(text + offset, first);
    if (parser.current() == codec::request_parser::state::need_more && used == first)
      used += parser.feed(text + offset + used, len - offset - used);
    offset += used;
    if (parser.current() == codec::request_parser::state::rejected) {
      if (parser.reject_status() < 400 || parser.reject_status() > 599) __builtin_trap();
      break;
    }
    if (parser.current() != codec::request_parser::state::done) break;
    const codec::http_request req = parser.take();
    (void)req.header("Content-Type");
    (void)req.has_header("Authorization");
    (void)req.query_param("plugin");
    (void)req.has_query_param("limit");
    (void)req.keep_alive();
    (void)codec::percent_decode(req.path);
    if (codec::is_websocket_upgrade(req)) {
      const auto offered = codec::offered_subprotocols(req);
      (void)codec::accept_handshake(req, offered.empty() ? std::string() : offered.front());
    }
    parser.reset();
    if (used == 0) break;
  }
  return 0;
}
