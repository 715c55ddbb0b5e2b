#include <signal.h>

#include "platform/signals.hpp"

namespace opentabs::platform {

namespace {

constexpr handled_signal kServer[] = {
    {SIGINT, "SIGINT", signal_meaning::stop},     {SIGTERM, "SIGTERM", signal_meaning::stop},
    {SIGQUIT, "SIGQUIT", signal_meaning::stop},   {SIGHUP, "SIGHUP", signal_meaning::reload},
    {SIGUSR1, "SIGUSR1", signal_meaning::reload}, {SIGUSR2, "SIGUSR2", signal_meaning::ignore},
};

}  // namespace

std::span<const handled_signal> server_signals() noexcept { return kServer; }

std::span<const handled_signal> stop_signals() noexcept { return std::span<const handled_signal>(kServer, 2); }

}  // namespace opentabs::platform
