// The stuck-call table is shared with the threads (bounded_calls.hpp); each thread removes
// its own key when it returns after its waiter gave up.
#include "util/bounded_calls.hpp"

namespace opentabs {

std::size_t bounded_calls::stuck() const {
  std::lock_guard lock(s_->mu);
  return s_->stuck.size();
}

result<std::optional<bounded_calls::outcome>> bounded_calls::admit(const std::string& key) const {
  std::lock_guard lock(s_->mu);
  if (auto it = s_->stuck.find(key); it != s_->stuck.end()) return std::optional<outcome>(it->second.value);
  if (s_->stuck.size() >= max_stuck_)
    return make_error(errc::busy, std::to_string(max_stuck_) + " earlier calls have not returned; " + key +
                                      " is not tried until one of them does");
  return std::optional<outcome>();
}

bool bounded_calls::start(const std::string& key, std::shared_ptr<one_call> c, std::function<std::any()> fn) const {
  try {
    std::thread([s = s_, key, c, fn = std::move(fn)] {
      try {
        c->done.set_value(fn());
      } catch (...) {
        c->done.set_exception(std::current_exception());
      }
      if (!c->settled.exchange(true)) return;
      std::lock_guard lock(s->mu);
      if (auto it = s->stuck.find(key); it != s->stuck.end() && it->second.call == c.get()) s->stuck.erase(it);
    }).detach();
    return true;
  } catch (const std::system_error&) {
    return false;
  }
}

bool bounded_calls::mark_stuck(const std::string& key, const std::shared_ptr<one_call>& c, const outcome& o) const {
  std::lock_guard lock(s_->mu);
  s_->stuck.insert_or_assign(key, stuck_call{o, c.get()});
  if (!c->settled.exchange(true)) return false;
  // The thread returned in the meantime and left the key to this waiter.
  s_->stuck.erase(key);
  return true;
}

error bounded_calls::missed(std::chrono::milliseconds deadline) {
  return make_error(errc::timeout, "did not return within " + std::to_string(deadline.count()) + " ms");
}

}  // namespace opentabs
