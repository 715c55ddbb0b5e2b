// The HTTP/1.1 server: accepts on 127.0.0.1, runs every connection as one coroutine tree
// (reader ‖ writer, watched by one watchdog) and hands each parsed request to the handler.
// Lives on one io_context thread; nothing here is thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <string>

#include "net/asio.hpp"
#include "net/http_exchange.hpp"
#include "net/limits.hpp"
#include "util/result.hpp"

namespace opentabs::net {

using request_handler = std::function<awaitable<void>(http_exchange&)>;

class http_server {
 public:
  http_server(asio::io_context& io, limits lim, request_handler handler);

  // Binds and listens; port 0 picks an ephemeral port.  Returns the bound port.
  result<std::uint16_t> listen(const std::string& host, std::uint16_t port);
  // Accepts until stop(); spawn it once.
  awaitable<void> run();
  // Stops accepting and closes every connection's socket.
  void stop();

  std::size_t connection_count() const { return connections_.size(); }
  const limits& lim() const { return lim_; }

 private:
  awaitable<void> serve(tcp::socket socket);
  awaitable<void> read_requests(connection& conn);
  awaitable<void> write_out(connection& conn);

  asio::io_context& io_;
  limits lim_;
  request_handler handler_;
  tcp::acceptor acceptor_;
  std::list<connection*> connections_;
  bool stopping_ = false;
};

}  // namespace opentabs::net
