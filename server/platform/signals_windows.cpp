#include <signal.h>

#include "platform/signals.hpp"

namespace opentabs::platform {

namespace {

constexpr handled_signal kServer[] = {
    {SIGINT, "SIGINT", signal_meaning::stop},
    {SIGTERM, "SIGTERM", signal_meaning::stop},
    {SIGBREAK, "SIGBREAK", signal_meaning::stop},
};

}  // namespace

std::span<const handled_signal> server_signals() noexcept { return kServer; }

std::span<const handled_signal> stop_signals() noexcept { return std::span<const handled_signal>(kServer, 2); }

}  // namespace opentabs::platform
