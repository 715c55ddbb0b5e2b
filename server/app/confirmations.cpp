#include "app/confirmations.hpp"

#include "app/cancel_link.hpp"

namespace opentabs::app {

net::awaitable<decision> confirmations::wait(const std::string& id, const std::shared_ptr<tools::cancel_source>& cancel) {
  auto rec = std::make_shared<record>();
  pending_[id] = rec;
  struct cleanup {
    confirmations* self;
    const std::string& id;
    ~cleanup() { self->pending_.erase(id); }
  } guard{this, id};
  // Declared after the guard: the cancel is unhooked before the record goes.
  cancel_link link(cancel, [this, id] { settle(id, decision::cancelled); });
  while (!rec->outcome) co_await settled_.wait();
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
  settled_.notify_all();
  return true;
}

void confirmations::settle_all(decision d) {
  for (auto& [id, rec] : pending_)
    if (!rec->outcome) rec->outcome = d;
  settled_.notify_all();
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
