#include "platform/socket_peer.hpp"

#include <winsock2.h>

namespace opentabs::platform {

bool socket_peer_closed(std::uintptr_t handle) {
  WSAPOLLFD p{};
  p.fd = static_cast<SOCKET>(handle);
  p.events = POLLRDNORM;
  if (::WSAPoll(&p, 1, 0) <= 0) return false;
  if (p.revents & (POLLERR | POLLHUP | POLLNVAL)) return true;
  char byte;
  return ::recv(p.fd, &byte, 1, MSG_PEEK) == 0;
}

}  // namespace opentabs::platform
