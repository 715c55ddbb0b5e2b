#include "net/connection.hpp"

namespace opentabs::net {

awaitable<bool> connection::read_more() {
  char buf[16384];
  auto [ec, n] = co_await socket.async_read_some(asio::buffer(buf), as_value);
  if (ec || n == 0) co_return false;
  pending.append(buf, n);
  co_return true;
}

void connection::close_socket() {
  asio::error_code ignored;
  socket.shutdown(tcp::socket::shutdown_both, ignored);
  socket.close(ignored);
  out.close();
}

}  // namespace opentabs::net
