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

}  // namespace opentabs::app
