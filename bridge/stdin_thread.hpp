// A read of stdin that blocks, run on a thread of its own, for a stdin Asio cannot wait on
// (a regular file or /dev/null on POSIX; every standard handle on Windows, which the client
// opens without overlapped I/O).  The io_context keeps serving the server side while the
// client is silent.  A plain thread is used rather than an overlapped pipe because the
// handle the client gives cannot be reopened overlapped, and a console is no pipe at all.
#pragma once

#include <cstddef>
#include <string>

#include "net/asio.hpp"

namespace opentabs::bridge {

// Up to `max` bytes of stdin; empty at its end or on an error.  The thread is detached: a
// read still blocked when the bridge ends is abandoned with the process.
net::awaitable<std::string> read_stdin_on_thread(std::size_t max);

}  // namespace opentabs::bridge
