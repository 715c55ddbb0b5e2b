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

status confirmations::park(const std::string& id, const std::string& client, std::chrono::steady_clock::time_point expires) {
  auto now = std::chrono::steady_clock::now();
  std::erase_if(parked_, [now](const auto& kv) { return kv.second.expires <= now; });
  if (auto it = parked_.find(id); it != parked_.end()) {
    it->second.expires = std::max(it->second.expires, expires);
    return ok();
  }
  std::size_t mine = 0;
  auto soonest = expires;
  for (const auto& [other_id, q] : parked_)
    if (q.client == client) {
      ++mine;
      soonest = std::min(soonest, q.expires);
    }
  const auto seconds = [&](auto at) { return std::to_string(std::chrono::ceil<std::chrono::seconds>(at - now).count()); };
  if (mine >= max_parked_per_client)
    return make_error(errc::busy, std::to_string(mine) + " permission questions of this client are waiting for the user (the limit is " +
                                      std::to_string(max_parked_per_client) + "); answer them, or retry in " + seconds(soonest) +
                                      " s when the oldest expires");
  if (parked_.size() >= max_parked)
    return make_error(errc::busy, std::to_string(parked_.size()) + " permission questions are waiting for the user (the limit is " +
                                      std::to_string(max_parked) + "); retry once some are answered or have expired");
  parked_.emplace(id, parked_question{client, expires, std::nullopt});
  return ok();
}

std::optional<decision> confirmations::take_parked(const std::string& id) {
  auto it = parked_.find(id);
  if (it == parked_.end() || !it->second.outcome) return std::nullopt;
  auto d = it->second.outcome;
  parked_.erase(it);
  return d;
}

}  // namespace opentabs::app
