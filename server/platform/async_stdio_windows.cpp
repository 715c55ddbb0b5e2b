// Windows: the standard handles a client gives us are anonymous pipes or consoles opened
// without FILE_FLAG_OVERLAPPED, which an I/O completion port cannot serve.
#include "platform/async_stdio.hpp"

namespace opentabs::platform {

bool attach_standard_stream(async_stream& /*stream*/, standard_stream /*which*/) { return false; }

// The read ends spawn() makes are overlapped named pipes, which the completion port serves.
bool attach_pipe(async_stream& stream, native_handle pipe) {
  asio::error_code ec;
  stream.assign(reinterpret_cast<void*>(pipe), ec);
  if (ec) close_handle(pipe);
  return !ec;
}

}  // namespace opentabs::platform
