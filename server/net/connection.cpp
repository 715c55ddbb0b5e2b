#include "net/connection.hpp"

#include "platform/socket_peer.hpp"

namespace opentabs::net {

awaitable<bool> connection::read_more() {
  auto [ec, n] = co_await socket.async_read_some(asio::buffer(read_buffer), as_value);
  if (ec || n == 0) co_return false;
  pending.append(read_buffer.data(), n);
  co_return true;
}

bool connection::peer_closed() {
  if (!socket.is_open()) return true;
  return platform::socket_peer_closed(static_cast<std::uintptr_t>(socket.native_handle()));
}

void connection::close_socket() {
  asio::error_code ignored;
  socket.shutdown(tcp::socket::shutdown_both, ignored);
  socket.close(ignored);
  out.close();
}

}  // namespace opentabs::net
