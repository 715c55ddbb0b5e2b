// A WebSocket over an upgraded connection: read() yields whole data messages and answers
// control frames itself (ping → pong, close → close echo); send_text() queues a frame on the
// connection's outbox.  Silence is answered with a ping and a pong deadline.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "codec/ws_codec.hpp"
#include "net/connection.hpp"

namespace opentabs::net {

class ws_connection {
 public:
  explicit ws_connection(connection& conn);
  ~ws_connection();
  ws_connection(const ws_connection&) = delete;
  ws_connection& operator=(const ws_connection&) = delete;

  // The next text/binary message; nullopt when the connection ended (peer close, protocol
  // error — already answered with the right close code — EOF, or deadline).
  awaitable<std::optional<codec::ws_message>> read();

  bool send_text(std::string_view payload);
  // Sends a close frame and lets the writer finish; read() returns nullopt afterwards.
  void close(std::uint16_t code, std::string_view reason);
  bool open() const { return !closing_ && !conn_.out.closed(); }
  // Why the connection ended, for logs ("peer closed 1000", "protocol error: ...").
  const std::string& end_reason() const { return end_reason_; }

 private:
  bool on_silence();

  connection& conn_;
  codec::ws_decoder decoder_;
  std::vector<codec::ws_message> ready_;
  std::size_t next_ready_ = 0;
  bool closing_ = false;
  bool ping_outstanding_ = false;
  std::string end_reason_;
};

}  // namespace opentabs::net
