#include "mcp/session_table.hpp"

#include "util/random.hpp"

namespace opentabs::mcp {

namespace {
constexpr auto kWindow = std::chrono::seconds(60);
}

creation_bucket::creation_bucket(int capacity, clock_fn now) : capacity_(capacity), now_(std::move(now)) {}

void creation_bucket::forget_old(steady_time now) {
  while (!taken_.empty() && now - taken_.front() >= kWindow) taken_.pop_front();
}

bool creation_bucket::try_take() {
  auto now = now_();
  forget_old(now);
  if (static_cast<int>(taken_.size()) >= capacity_) return false;
  taken_.push_back(now);
  return true;
}

int creation_bucket::retry_after_seconds() {
  auto now = now_();
  forget_old(now);
  if (static_cast<int>(taken_.size()) < capacity_ || taken_.empty()) return 1;
  auto wait = taken_.front() + kWindow - now;
  auto secs = std::chrono::ceil<std::chrono::seconds>(wait).count();
  return secs < 1 ? 1 : static_cast<int>(secs);
}

session_table::session_table(std::chrono::milliseconds idle_expiry, int max_new_per_minute, clock_fn now)
    : idle_(idle_expiry), now_(now), bucket_(max_new_per_minute, now) {}

std::shared_ptr<session_record> session_table::create(std::string protocol_version) {
  auto rec = std::make_shared<session_record>();
  rec->id = uuid_v4();
  while (sessions_.count(rec->id)) rec->id = uuid_v4();
  rec->protocol_version = std::move(protocol_version);
  rec->last_activity = now_();
  sessions_.emplace(rec->id, rec);
  return rec;
}

session_record* session_table::find(std::string_view id) {
  auto it = sessions_.find(id);
  if (it == sessions_.end()) return nullptr;
  if (expired(*it->second)) return nullptr;
  return it->second.get();
}

bool session_table::remove(std::string_view id) { return sessions_.erase(std::string(id)) > 0; }

bool session_table::expired(const session_record& s) const { return s.busy == 0 && now_() - s.last_activity >= idle_; }

client_counts session_table::counts(std::chrono::milliseconds window) const {
  client_counts c;
  auto now = now_();
  for (const auto& [id, s] : sessions_) {
    if (s->busy > 0 || now - s->last_activity <= window)
      ++c.active_sessions;
    else
      ++c.idle_sessions;
  }
  return c;
}

steady_time session_table::next_check(const session_record& s) const {
  if (s.busy > 0) return now_() + idle_;
  return s.last_activity + idle_;
}

}  // namespace opentabs::mcp
