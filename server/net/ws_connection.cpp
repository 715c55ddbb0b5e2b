#include "net/ws_connection.hpp"

namespace opentabs::net {

ws_connection::ws_connection(connection& conn) : conn_(conn), decoder_(conn.lim.max_ws_message_bytes) {
  conn_.on_deadline = [this] { return on_silence(); };
  conn_.dog.read_within(conn_.lim.ws_ping_after);
}

ws_connection::~ws_connection() {
  conn_.on_deadline = nullptr;
}

bool ws_connection::on_silence() {
  if (closing_ || ping_outstanding_) {
    end_reason_ = closing_ ? "close handshake timed out" : "no pong within the deadline";
    conn_.close_socket();
    return false;
  }
  ping_outstanding_ = true;
  conn_.out.push(codec::encode_ping("opentabs"));
  conn_.dog.read_within(conn_.lim.ws_pong_timeout);
  return true;
}

awaitable<std::optional<codec::ws_message>> ws_connection::read() {
  while (true) {
    if (next_ready_ < ready_.size()) {
      auto msg = std::move(ready_[next_ready_++]);
      if (next_ready_ == ready_.size()) {
        ready_.clear();
        next_ready_ = 0;
      }
      switch (msg.type) {
        case codec::ws_message::kind::ping:
          conn_.out.push(codec::encode_pong(msg.payload));
          continue;
        case codec::ws_message::kind::pong:
          continue;
        case codec::ws_message::kind::close:
          end_reason_ = "peer closed " + std::to_string(msg.close_code);
          if (!closing_) {
            closing_ = true;
            conn_.out.push(codec::encode_close(msg.close_code ? msg.close_code : codec::close_code::normal, ""));
          }
          conn_.out.finish();
          co_return std::nullopt;
        default:
          co_return msg;
      }
    }
    if (conn_.out.closed()) co_return std::nullopt;
    if (conn_.pending.empty()) {
      bool more = co_await conn_.read_more();  // GCC 12: net/asio.hpp
      if (!more) {
        if (end_reason_.empty()) end_reason_ = "connection lost";
        co_return std::nullopt;
      }
      // Any traffic proves the peer alive.
      ping_outstanding_ = false;
      conn_.dog.read_within(conn_.lim.ws_ping_after);
    }
    std::string reason;
    auto code = decoder_.feed(conn_.pending.data(), conn_.pending.size(), ready_, reason);
    conn_.pending.clear();
    if (code != 0) {
      end_reason_ = "protocol error: " + reason;
      // Deliver nothing decoded after the error; answer with the close code and end.
      ready_.clear();
      next_ready_ = 0;
      close(code, reason);
      co_return std::nullopt;
    }
  }
}

bool ws_connection::send_text(std::string_view payload) {
  if (closing_) return false;
  return conn_.out.push(codec::encode_text(payload));
}

void ws_connection::close(std::uint16_t code, std::string_view reason) {
  if (closing_) return;
  closing_ = true;
  conn_.out.push(codec::encode_close(code, reason));
  conn_.out.finish();
  // The peer gets a short time to echo the close before the socket is dropped.
  conn_.dog.read_within(conn_.lim.ws_pong_timeout);
}

}  // namespace opentabs::net
