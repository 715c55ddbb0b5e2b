// This process's standard streams as raw bytes (the native-messaging host speaks a binary
// protocol on them: Windows must not translate line ends), and what they are connected to
// (a terminal, and how wide it is).
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace opentabs::platform {

enum class standard_stream { input, output, error };

// Blocking read of stdin: bytes read, 0 at its end, -1 on an error.
std::ptrdiff_t read_stdin(char* buf, std::size_t size) noexcept;

// Writes all of `bytes` to stdout unbuffered; false when a write fails.
bool write_stdout(std::string_view bytes) noexcept;

// Makes stdout (the C runtime's FILE) reach a pipe at each line end, so a reader waiting for a
// line (the "listening on" line) sees it at once.
void line_buffer_stdout() noexcept;

bool is_terminal(standard_stream s) noexcept;

// The column count of the terminal on stdout, when it is one and says.
std::optional<std::size_t> terminal_columns() noexcept;

}  // namespace opentabs::platform
