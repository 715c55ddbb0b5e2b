#include "net/connection_slots.hpp"

#include <algorithm>
#include <utility>

namespace opentabs::net {

connection_slots::connection_slots(std::size_t capacity, std::size_t reserved, std::size_t per_caller)
    : capacity_(std::max<std::size_t>(capacity, 1)),
      unauthenticated_capacity_(capacity_ - std::min(reserved, capacity_ - 1)),
      per_caller_(std::max<std::size_t>(per_caller, 1)) {}

std::optional<connection_slots::id> connection_slots::admit(std::function<void()> close, std::function<bool()> peer_gone) {
  if (slots_.size() >= capacity_ || unauthenticated_ >= unauthenticated_capacity_) {
    if (!evict_oldest_idle_unauthenticated() && !reap_gone()) return std::nullopt;
  }
  id slot = next_++;
  slot_state fresh;
  fresh.close = std::move(close);
  fresh.peer_gone = std::move(peer_gone);
  slots_.emplace(slot, std::move(fresh));
  ++unauthenticated_;
  return slot;
}

void connection_slots::release(id slot) {
  auto it = slots_.find(slot);
  if (it == slots_.end()) return;
  if (!it->second.authenticated) --unauthenticated_;
  else forget_caller(it->second);
  slots_.erase(it);
}

void connection_slots::forget_caller(const slot_state& state) {
  auto held = per_caller_held_.find(state.caller);
  if (held == per_caller_held_.end()) return;
  if (--held->second == 0) per_caller_held_.erase(held);
}

std::size_t connection_slots::held_by(const std::string& caller) const {
  auto held = per_caller_held_.find(caller);
  return held == per_caller_held_.end() ? 0 : held->second;
}

bool connection_slots::mark_authenticated(id slot, const std::string& caller) {
  auto it = slots_.find(slot);
  if (it == slots_.end() || it->second.authenticated) return true;
  if (held_by(caller) >= per_caller_) {
    auto victim = std::find_if(slots_.begin(), slots_.end(), [&](const auto& entry) {
      return entry.first != slot && entry.second.authenticated && !entry.second.busy && entry.second.caller == caller;
    });
    if (victim != slots_.end()) evict(victim);
    else if (!reap_gone(&caller)) return false;
  }
  it = slots_.find(slot);
  it->second.authenticated = true;
  it->second.caller = caller;
  ++per_caller_held_[caller];
  --unauthenticated_;
  return true;
}

void connection_slots::set_busy(id slot, bool busy) {
  if (auto it = slots_.find(slot); it != slots_.end()) it->second.busy = busy;
}

void connection_slots::evict(std::map<id, slot_state>::iterator victim) {
  auto close = std::move(victim->second.close);
  if (victim->second.authenticated) forget_caller(victim->second);
  else --unauthenticated_;
  slots_.erase(victim);
  if (close) close();
}

bool connection_slots::evict_oldest_idle_unauthenticated() {
  auto victim = std::find_if(slots_.begin(), slots_.end(),
                             [](const auto& entry) { return !entry.second.authenticated && !entry.second.busy; });
  if (victim == slots_.end()) return false;
  evict(victim);
  return true;
}

bool connection_slots::reap_gone(const std::string* caller) {
  auto victim = std::find_if(slots_.begin(), slots_.end(), [caller](const auto& entry) {
    const auto& state = entry.second;
    if (caller && (!state.authenticated || state.caller != *caller)) return false;
    return state.peer_gone && state.peer_gone();
  });
  if (victim == slots_.end()) return false;
  evict(victim);
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
