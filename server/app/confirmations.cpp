#include "app/confirmations.hpp"

namespace opentabs::app {

net::awaitable<decision> confirmations::wait(const std::string& id, std::function<void()>* cancel_hook) {
  auto rec = std::make_shared<record>(ex_);
  pending_[id] = rec;
  if (cancel_hook) *cancel_hook = [this, id] { settle(id, decision::cancelled); };
  struct cleanup {
    confirmations* self;
    const std::string& id;
    std::function<void()>* hook;
    ~cleanup() {
      self->pending_.erase(id);
      if (hook) *hook = nullptr;
    }
  } guard{this, id, cancel_hook};
  while (!rec->outcome) {
    rec->timer.expires_at(asio::steady_timer::time_point::max());
    co_await rec->timer.async_wait(net::as_value);
  }
  co_return *rec->outcome;
}

bool confirmations::settle(const std::string& id, decision d) {
  if (auto p = parked_.find(id); p != parked_.end()) {
    if (p->second.outcome || p->second.expires <= std::chrono::steady_clock::now()) return false;
    p->second.outcome = d;
    return true;
  }
  auto it = pending_.find(id);
  if (it == pending_.end() || it->second->outcome) return false;
  it->second->outcome = d;
  it->second->timer.cancel();
  return true;
}

void confirmations::settle_all(decision d) {
  for (auto& [id, rec] : pending_) {
    if (rec->outcome) continue;
    rec->outcome = d;
    rec->timer.cancel();
  }
}

void confirmations::park(const std::string& id, std::chrono::steady_clock::time_point expires) {
  auto now = std::chrono::steady_clock::now();
  std::erase_if(parked_, [now](const auto& kv) { return kv.second.expires <= now; });
  if (auto it = parked_.find(id); it != parked_.end()) {
    it->second.expires = std::max(it->second.expires, expires);
    return;
  }
  while (parked_.size() >= max_parked) {
    auto first = parked_.begin();
    for (auto it = parked_.begin(); it != parked_.end(); ++it)
      if (it->second.expires < first->second.expires) first = it;
    parked_.erase(first);
  }
  parked_.emplace(id, parked_question{expires, std::nullopt});
}

std::optional<decision> confirmations::take_parked(const std::string& id) {
  auto it = parked_.find(id);
  if (it == parked_.end() || !it->second.outcome) return std::nullopt;
  auto d = it->second.outcome;
  parked_.erase(it);
  return d;
}

}  // namespace opentabs::app
