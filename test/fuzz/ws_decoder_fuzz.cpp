// libFuzzer target: WebSocket frame decoding (codec::ws_decoder) as the /ws connection uses
// it — client frames arriving in arbitrary chunks (sizes taken from the input), with a small
// message limit so the 1009 path is reachable.  Every decoded message is re-encoded with the
// server's encoders, and a reported close code must be one the decoder documents.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "codec/ws_codec.hpp"

namespace codec = opentabs::codec;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::size_t chunk = 1 + data[0] % 64;  // bytes per simulated socket read
  std::string bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  codec::ws_decoder decoder(4096);
  std::vector<codec::ws_message> out;
  std::string reason;
  for (std::size_t at = 0; at < bytes.size(); at += chunk) {
    const std::size_t n = std::min(chunk, bytes.size() - at);
    const std::uint16_t code = decoder.feed(bytes.data() + at, n, out, reason);
    if (code != 0) {
      if (code != codec::close_code::protocol_error && code != codec::close_code::invalid_payload &&
          code != codec::close_code::message_too_big && code != codec::close_code::policy_violation &&
          code != codec::close_code::internal_error)
        __builtin_trap();
      break;
    }
  }
  for (const auto& m : out) {
    if (m.payload.size() > 4096 && m.type != codec::ws_message::kind::close) __builtin_trap();
    switch (m.type) {
      case codec::ws_message::kind::text: (void)codec::encode_text(m.payload); break;
      case codec::ws_message::kind::ping: (void)codec::encode_pong(m.payload); break;
      case codec::ws_message::kind::close: (void)codec::encode_close(m.close_code, m.payload); break;
      default: break;
    }
  }
  return 0;
}
