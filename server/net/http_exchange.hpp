// One HTTP request being answered.  A handler gets an http_exchange and either responds
// once, streams a chunked body (SSE), or upgrades the connection to a WebSocket.  All
// bytes go through the connection's outbox, so the single writer rule holds.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "codec/http_request.hpp"
#include "net/connection.hpp"
#include "net/http_response.hpp"
#include "util/result.hpp"

namespace opentabs::net {

class ws_connection;

class http_exchange {
 public:
  // `screened_authenticated`: set when the server's head screen admitted the request
  // (to whether it showed the secret), so the handler need not screen it again.
  http_exchange(connection& conn, codec::http_request req, std::optional<bool> screened_authenticated = std::nullopt)
      : conn_(conn), req_(std::move(req)), screened_authenticated_(screened_authenticated) {}

  const codec::http_request& request() const { return req_; }
  const std::optional<bool>& screened_authenticated() const { return screened_authenticated_; }

  // A complete response.  Only the first call counts.
  void respond(http_response res);
  // A complete response whose body is res.body + `shared` + `after`: the shared part is
  // queued as it is, not copied (a cached listing of megabytes, sent to many clients).
  void respond(http_response res, std::shared_ptr<const std::string> shared, std::string after);

  // A streamed response (chunked): head now, then chunks, then end_stream().
  void start_stream(int status, const header_list& headers);
  // The same, but the head waits to go out with the first chunk (or flush_head(), or
  // end_stream()): a stream that is answered at once then leaves in one write.
  void start_stream_deferred(int status, const header_list& headers);
  void flush_head();
  bool send_chunk(std::string_view data);  // false once the peer is gone
  void end_stream();

  bool responded() const { return responded_; }
  bool streaming() const { return streaming_ && !stream_ended_; }
  bool peer_gone() const { return conn_.out.closed(); }
  // peer_gone(), or the socket says now, without blocking, that the client closed its end
  // (a held stream reads nothing, so otherwise only a failed write would tell).
  bool peer_closed_now() { return peer_gone() || conn_.peer_closed(); }
  // Close the connection after this response even if the client asked for keep-alive.
  void close_after() { close_after_ = true; }
  bool keep_alive() const { return !close_after_ && req_.keep_alive(); }

  // Waits until the peer closes the connection or the stream is ended; bytes the peer
  // sends meanwhile are discarded.  Long-lived streams use it to notice a gone client.
  awaitable<void> wait_peer_closed();

  // Answers the upgrade with 101 and `subprotocol`; the WebSocket then owns the connection.
  result<std::unique_ptr<ws_connection>> upgrade(std::string_view subprotocol);
  bool upgraded() const { return conn_.upgraded; }

  tcp::endpoint remote_endpoint() const;

 private:
  connection& conn_;
  codec::http_request req_;
  std::optional<bool> screened_authenticated_;
  bool responded_ = false;
  bool streaming_ = false;
  bool stream_ended_ = false;
  bool close_after_ = false;
  std::string deferred_head_;  // start_stream_deferred's head until it goes out
};

}  // namespace opentabs::net
