#include "net/connection.hpp"

#ifdef _WIN32
#include <winsock2.h>
#else
#include <poll.h>
#include <sys/socket.h>
#endif

namespace opentabs::net {

awaitable<bool> connection::read_more() {
  auto [ec, n] = co_await socket.async_read_some(asio::buffer(read_buffer), as_value);
  if (ec || n == 0) co_return false;
  pending.append(read_buffer.data(), n);
  co_return true;
}

bool connection::peer_closed() {
  if (!socket.is_open()) return true;
  // A zero-timeout poll, then a peek only when it is readable, so neither blocks; the socket's
  // own (non-)blocking mode is not touched, since Asio may have a write pending on it.
#ifdef _WIN32
  WSAPOLLFD p{};
  p.fd = socket.native_handle();
  p.events = POLLRDNORM;
  if (::WSAPoll(&p, 1, 0) <= 0) return false;
#else
  pollfd p{};
  p.fd = socket.native_handle();
  p.events = POLLIN;
  if (::poll(&p, 1, 0) <= 0) return false;
#endif
  if (p.revents & (POLLERR | POLLHUP | POLLNVAL)) return true;
  char byte;
  const auto n = ::recv(socket.native_handle(), &byte, 1, MSG_PEEK);
  return n == 0;  // end of stream; bytes waiting mean the peer is still there
}

void connection::close_socket() {
  asio::error_code ignored;
  socket.shutdown(tcp::socket::shutdown_both, ignored);
  socket.close(ignored);
  out.close();
}

}  // namespace opentabs::net
