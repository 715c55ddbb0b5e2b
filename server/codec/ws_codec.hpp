// The WebSocket (RFC 6455) codec: handshake answer, frame decoding and frame encoding, with
// no I/O.  The single adapter over websocketpp's processor::hybi13; nothing else in the
// project includes websocketpp, so switching codecs touches only ws_codec.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "codec/http_request.hpp"
#include "util/result.hpp"

namespace opentabs::codec {

// Close codes used by the server.
namespace close_code {
inline constexpr std::uint16_t normal = 1000;
inline constexpr std::uint16_t going_away = 1001;
inline constexpr std::uint16_t protocol_error = 1002;
inline constexpr std::uint16_t invalid_payload = 1007;
inline constexpr std::uint16_t policy_violation = 1008;
inline constexpr std::uint16_t message_too_big = 1009;
inline constexpr std::uint16_t internal_error = 1011;
}  // namespace close_code

// Whether the request asks for a WebSocket upgrade.
bool is_websocket_upgrade(const http_request& req);

// The subprotocols offered in Sec-WebSocket-Protocol, trimmed, in order.
std::vector<std::string> offered_subprotocols(const http_request& req);

// Validates the handshake (GET, version 13, key present) and builds the raw
// "101 Switching Protocols" answer selecting `subprotocol` (empty: none).
// Errors carry an HTTP status in `code` ("400", "426") and its category in `kind`
// (invalid_request, unsupported), which net::http_status_for maps back to that status.
result<std::string> accept_handshake(const http_request& req, std::string_view subprotocol);

struct ws_message {
  enum class kind { text, binary, ping, pong, close };
  kind type = kind::text;
  std::string payload;          // message data; for close: the reason
  std::uint16_t close_code = 0; // for close
};

// Decodes client frames.  Not thread-safe; owned by one connection coroutine.
class ws_decoder {
 public:
  explicit ws_decoder(std::size_t max_message_bytes);
  ~ws_decoder();
  ws_decoder(const ws_decoder&) = delete;
  ws_decoder& operator=(const ws_decoder&) = delete;

  // Feeds bytes (all of them are consumed unless an error occurs; payloads are unmasked in
  // place, so the buffer is modified) and appends every
  // complete message to `out`.  On a protocol violation returns the close code to send
  // (1002 protocol error, 1007 invalid UTF-8, 1009 too big) and a reason; 0 when fine.
  std::uint16_t feed(char* data, std::size_t size, std::vector<ws_message>& out, std::string& reason);

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

// Server frames (unmasked).
std::string encode_text(std::string_view payload);
std::string encode_ping(std::string_view payload);
std::string encode_pong(std::string_view payload);
std::string encode_close(std::uint16_t code, std::string_view reason);

}  // namespace opentabs::codec
