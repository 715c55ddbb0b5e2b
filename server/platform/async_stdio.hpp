// Asio streams over this process's stdin and stdout, for a program that serves a client
// over its standard streams (the stdio bridge).  The stream type is the OS's: a POSIX
// stream_descriptor or a Windows stream_handle; only this header names it.
#pragma once

#include "platform/child_process.hpp"
#include "platform/standard_streams.hpp"

#if defined(_WIN32)
#include <asio/windows/stream_handle.hpp>
#else
#include <asio/posix/stream_descriptor.hpp>
#endif

namespace opentabs::platform {

#if defined(_WIN32)
using async_stream = asio::windows::stream_handle;
#else
using async_stream = asio::posix::stream_descriptor;
#endif

// Gives `stream` its own copy of stdin or stdout that no child process inherits.  false
// when the stream cannot be waited on asynchronously (a regular file or the null device on
// POSIX; any standard handle on Windows, which are opened without overlapped I/O): the
// caller then uses read_stdin / write_stdout, which block.
bool attach_standard_stream(async_stream& stream, standard_stream which);

// Hands a child's pipe read end (child::take_stdout / take_stderr) to `stream`, which owns it
// from then on; false (and the handle closed) when Asio refuses it.
bool attach_pipe(async_stream& stream, native_handle pipe);

}  // namespace opentabs::platform
