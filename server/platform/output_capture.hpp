// This process's stdout and stderr redirected into two pipes, so that one thread can copy
// everything the process (and the libraries in it) prints to a log file; the original
// streams are kept for writing to the terminal and are put back by restore().
#pragma once

#include <string_view>
#include <system_error>

#include "platform/child_process.hpp"

namespace opentabs::platform {

class output_capture {
 public:
  output_capture() = default;
  output_capture(const output_capture&) = delete;
  output_capture& operator=(const output_capture&) = delete;
  ~output_capture();

  // Flushes the C streams and redirects both.  Not to be called twice.
  std::error_code start();
  // The read ends: what the process writes to stdout (0) and stderr (1).  Their end comes
  // once restore() has run and everything written before was read.
  native_handle pipe(int which) const noexcept { return read_[which]; }
  // Writes to the original stream (0 = stdout, 1 = stderr); a closed terminal is ignored.
  void write_original(int which, std::string_view bytes) noexcept;
  // Flushes the C streams and puts the original streams back (closing the pipes' write ends).
  void restore() noexcept;

 private:
  native_handle saved_[2] = {kNoHandle, kNoHandle};
  native_handle read_[2] = {kNoHandle, kNoHandle};
};

}  // namespace opentabs::platform
