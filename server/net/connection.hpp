// The state one accepted TCP connection owns: the socket, its outbox and watchdog, the
// bytes read but not yet parsed.  Owned by the connection coroutine tree (http_server.cpp);
// http_exchange and ws_connection borrow it while a request is being handled.
#pragma once

#include <array>
#include <functional>
#include <string>

#include "net/asio.hpp"
#include "net/limits.hpp"
#include "net/outbox.hpp"
#include "net/watchdog.hpp"

namespace opentabs::net {

struct connection {
  connection(tcp::socket s, const limits& l)
      : socket(std::move(s)), lim(l), out(socket.get_executor(), l.outbox_capacity), dog(socket.get_executor()) {}

  // Reads more bytes into `pending`; false on EOF or error.
  awaitable<bool> read_more();
  void close_socket();
  // Whether the peer has closed its end (or the socket failed), asked without blocking and
  // without taking any byte: for a connection whose reader is not running (a held stream).
  bool peer_closed();

  tcp::socket socket;
  const limits& lim;
  outbox out;
  watchdog dog;
  std::string pending;  // received, not yet consumed
  // read_more's buffer.  A member, not a local of the coroutine: a 16 KiB coroutine frame
  // is past Asio's frame recycling, so every read would malloc and free it.
  std::array<char, 16384> read_buffer;
  bool upgraded = false;
  // What a passed deadline means: by default the connection is dropped; a WebSocket first
  // pings (see ws_connection).  Returns true to keep watching.
  std::function<bool()> on_deadline;
};

}  // namespace opentabs::net
