#include "platform/signals.hpp"

namespace opentabs::platform {

const handled_signal* find_server_signal(int number) noexcept {
  for (const auto& s : server_signals())
    if (s.number == number) return &s;
  return nullptr;
}

}  // namespace opentabs::platform
