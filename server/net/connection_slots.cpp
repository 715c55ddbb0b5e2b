#include "net/connection_slots.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace opentabs::net {

connection_slots::connection_slots(std::size_t capacity, std::size_t reserved, std::size_t per_caller)
    : capacity_(std::max<std::size_t>(capacity, 1)),
      unauthenticated_capacity_(capacity_ - std::min(reserved, capacity_ - 1)),
      per_caller_(std::max<std::size_t>(per_caller, 1)) {}

std::optional<connection_slots::id> connection_slots::admit(std::function<void()> close, std::function<bool()> peer_gone) {
  if (slots_.size() >= capacity_ || unauthenticated_ >= unauthenticated_capacity_) {
    const bool room = evict_oldest_idle_unauthenticated() || (slots_.size() >= capacity_ && evict_idle_of_largest_holder()) ||
                      reap_gone();
    if (!room) return std::nullopt;
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
  forget(it->second);
  slots_.erase(it);
}

void connection_slots::forget(const slot_state& state) {
  if (!state.authenticated) {
    --unauthenticated_;
    return;
  }
  auto drop = [&state](std::map<std::string, std::size_t>& counts) {
    auto c = counts.find(state.caller);
    if (c != counts.end() && --c->second == 0) counts.erase(c);
  };
  drop(held_);
  if (state.busy) drop(busy_);
}

std::size_t connection_slots::count_of(const std::map<std::string, std::size_t>& counts, const std::string& caller) {
  auto c = counts.find(caller);
  return c == counts.end() ? 0 : c->second;
}

bool connection_slots::admit_request(id slot, const std::string& caller) {
  auto it = slots_.find(slot);
  if (it == slots_.end()) return true;
  if (!it->second.authenticated) {
    it->second.authenticated = true;
    it->second.caller = caller;
    ++held_[caller];
    --unauthenticated_;
    if (it->second.busy) ++busy_[caller];
  }
  const std::string& who = it->second.caller;
  if (it->second.busy || count_of(busy_, who) < per_caller_) return true;
  // Every connection of the budget is inside a request: one whose client left gives way.
  return reap_gone(&who);
}

void connection_slots::set_busy(id slot, bool busy) {
  auto it = slots_.find(slot);
  if (it == slots_.end() || it->second.busy == busy) return;
  it->second.busy = busy;
  if (!it->second.authenticated) return;
  if (busy) {
    ++busy_[it->second.caller];
  } else if (auto c = busy_.find(it->second.caller); c != busy_.end() && --c->second == 0) {
    busy_.erase(c);
  }
}

void connection_slots::evict(std::map<id, slot_state>::iterator victim) {
  auto close = std::move(victim->second.close);
  forget(victim->second);
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

bool connection_slots::evict_idle_of_largest_holder() {
  // Callers from the one holding the most connections down: its oldest idle one goes.
  std::vector<std::pair<std::size_t, std::string>> holders;
  for (const auto& [caller, n] : held_) holders.emplace_back(n, caller);
  std::sort(holders.begin(), holders.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [n, caller] : holders) {
    auto victim = std::find_if(slots_.begin(), slots_.end(), [&caller](const auto& entry) {
      return entry.second.authenticated && !entry.second.busy && entry.second.caller == caller;
    });
    if (victim != slots_.end()) {
      evict(victim);
      return true;
    }
  }
  return false;
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
