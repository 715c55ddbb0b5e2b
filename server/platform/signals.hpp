// The signals a server listens for on this OS and what each one means, so code above the
// seam registers them with asio::signal_set by number without naming OS constants.  POSIX:
// SIGINT, SIGTERM and SIGQUIT stop, SIGHUP and SIGUSR1 reload, SIGUSR2 is ignored.  Windows
// has only SIGINT (Ctrl+C), SIGTERM and SIGBREAK (Ctrl+Break), all of which stop.
#pragma once

#include <span>
#include <string_view>

namespace opentabs::platform {

enum class signal_meaning { stop, reload, ignore };

struct handled_signal {
  int number;
  std::string_view name;
  signal_meaning meaning;
};

// A server's signals (see the file comment).
std::span<const handled_signal> server_signals() noexcept;

// The signals that end a program that has nothing to reload (the stdio bridge).
std::span<const handled_signal> stop_signals() noexcept;

// The entry of `number` among server_signals(), or nullptr.
const handled_signal* find_server_signal(int number) noexcept;

}  // namespace opentabs::platform
