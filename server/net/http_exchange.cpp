#include "net/http_exchange.hpp"

#include <utility>

#include "codec/ws_codec.hpp"
#include "net/ws_connection.hpp"

namespace opentabs::net {

void http_exchange::respond(http_response res) {
  if (responded_) return;
  responded_ = true;
  // A large body (a tools/list of thousands of tools) is queued as it is, behind its head,
  // instead of being copied into one buffer with it.
  constexpr std::size_t separate_body_bytes = 64 * 1024;
  if (res.body.size() >= separate_body_bytes) {
    if (conn_.out.push(serialize_head(res, keep_alive()))) conn_.out.push(std::move(res.body));
    return;
  }
  conn_.out.push(serialize(res, keep_alive()));
}

void http_exchange::respond(http_response res, std::shared_ptr<const std::string> shared, std::string after) {
  if (responded_) return;
  responded_ = true;
  std::string before = serialize_head(res, keep_alive(), res.body.size() + shared->size() + after.size());
  before += res.body;
  if (!conn_.out.push(std::move(before))) return;
  if (!shared->empty() && !conn_.out.push(out_bytes(std::move(shared)))) return;
  if (!after.empty()) conn_.out.push(std::move(after));
}

void http_exchange::start_stream(int status, const header_list& headers) {
  start_stream_deferred(status, headers);
  flush_head();
}

void http_exchange::start_stream_deferred(int status, const header_list& headers) {
  if (responded_) return;
  responded_ = true;
  streaming_ = true;
  // Room for a typical first chunk (one SSE event with a tools/call result), which
  // send_chunk appends to the head.
  deferred_head_ = serialize_stream_head(status, headers, keep_alive(), 512);
}

void http_exchange::flush_head() {
  if (!deferred_head_.empty()) conn_.out.push(std::exchange(deferred_head_, {}));
}

bool http_exchange::send_chunk(std::string_view data) {
  if (!streaming_ || stream_ended_ || data.empty()) return false;
  if (deferred_head_.empty()) return conn_.out.push(encode_chunk(data));
  // Head and first chunk as one outbox item, so they leave in one write.
  std::string both = std::exchange(deferred_head_, {});
  append_chunk(both, data);
  return conn_.out.push(std::move(both));
}

void http_exchange::end_stream() {
  if (!streaming_ || stream_ended_) return;
  stream_ended_ = true;
  flush_head();
  conn_.out.push(std::string(last_chunk()));
}

awaitable<void> http_exchange::wait_peer_closed() {
  conn_.pending.clear();
  while (!conn_.out.closed()) {
    bool more = co_await conn_.read_more();  // GCC 12: net/asio.hpp
    if (!more) break;
    conn_.pending.clear();
  }
}

result<std::unique_ptr<ws_connection>> http_exchange::upgrade(std::string_view subprotocol) {
  auto answer = codec::accept_handshake(req_, subprotocol);
  if (!answer) return answer.err();
  responded_ = true;
  conn_.upgraded = true;
  conn_.out.push(std::move(*answer));
  return std::make_unique<ws_connection>(conn_);
}

tcp::endpoint http_exchange::remote_endpoint() const {
  asio::error_code ec;
  return conn_.socket.remote_endpoint(ec);
}

}  // namespace opentabs::net
