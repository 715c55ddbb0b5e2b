#include "net/connection_slots.hpp"

#include <algorithm>
#include <utility>

namespace opentabs::net {

connection_slots::connection_slots(std::size_t capacity, std::size_t reserved)
    : capacity_(std::max<std::size_t>(capacity, 1)),
      unauthenticated_capacity_(capacity_ - std::min(reserved, capacity_ - 1)) {}

std::optional<connection_slots::id> connection_slots::admit(std::function<void()> close) {
  if (slots_.size() >= capacity_ || unauthenticated_ >= unauthenticated_capacity_) {
    if (!evict_oldest_idle_unauthenticated()) return std::nullopt;
  }
  id slot = next_++;
  slots_.emplace(slot, slot_state{std::move(close)});
  ++unauthenticated_;
  return slot;
}

void connection_slots::release(id slot) {
  auto it = slots_.find(slot);
  if (it == slots_.end()) return;
  if (!it->second.authenticated) --unauthenticated_;
  slots_.erase(it);
}

void connection_slots::mark_authenticated(id slot) {
  auto it = slots_.find(slot);
  if (it == slots_.end() || it->second.authenticated) return;
  it->second.authenticated = true;
  --unauthenticated_;
}

void connection_slots::set_busy(id slot, bool busy) {
  if (auto it = slots_.find(slot); it != slots_.end()) it->second.busy = busy;
}

bool connection_slots::evict_oldest_idle_unauthenticated() {
  auto victim = std::find_if(slots_.begin(), slots_.end(),
                             [](const auto& entry) { return !entry.second.authenticated && !entry.second.busy; });
  if (victim == slots_.end()) return false;
  auto close = std::move(victim->second.close);
  slots_.erase(victim);
  --unauthenticated_;
  if (close) close();
  return true;
}

void connection_slots::close_all() {
  for (auto& [slot, state] : slots_)
    if (state.close) state.close();
}

bool connection_slots::is_authenticated(id slot) const {
  auto it = slots_.find(slot);
  return it != slots_.end() && it->second.authenticated;
}

}  // namespace opentabs::net
