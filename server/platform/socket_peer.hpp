// Whether the other end of a connected TCP socket has gone, asked without blocking.  A held
// stream (SSE, subscriptions/listen) only ever writes, so Asio notices a client that left
// only when a keep-alive write fails; the connection table asks this instead when it needs
// the slot.
#pragma once

#include <cstdint>

namespace opentabs::platform {

// `handle` is the socket's native handle (Asio's native_handle()).  True at end of stream
// or on a socket error; false while the peer is there, including when bytes are waiting.
// A zero-timeout poll, then a one-byte peek only when readable: neither blocks, and the
// socket's own (non-)blocking mode is not touched, since Asio may have a write pending.
bool socket_peer_closed(std::uintptr_t handle);

}  // namespace opentabs::platform
