#include "app/confirmations.hpp"

#include <algorithm>

#include "app/cancel_link.hpp"
#include "audit/audit_code.hpp"
#include "util/clock.hpp"
#include "util/log.hpp"

namespace opentabs::app {

namespace {

using steady = std::chrono::steady_clock;

std::string seconds_until(steady::time_point at, steady::time_point now) {
  return std::to_string(std::chrono::ceil<std::chrono::seconds>(at - now).count());
}

}  // namespace

std::string_view answer_name(decision d) {
  switch (d) {
    case decision::allow: return "allow_once";
    case decision::allow_always: return "always_allow";
    case decision::deny: return "deny";
    case decision::disconnected: return "disconnected";
    case decision::cancelled: return "cancelled";
    case decision::shutdown: return "shutdown";
  }
  return "cancelled";
}

std::string decision_words(decision d) {
  switch (d) {
    case decision::allow: return "allowed once";
    case decision::allow_always: return "always allowed";
    case decision::deny: return "denied";
    case decision::cancelled: return "was cancelled";
    case decision::disconnected: return "ended: the extension disconnected";
    case decision::shutdown: return "ended: the server is shutting down";
  }
  return "ended";
}

std::string_view asker_words(audit::decided_by by) {
  switch (by) {
    case audit::decided_by::side_panel: return "the OpenTabs side panel";
    case audit::decided_by::elicitation: return "the agent's dialog";
    default: return "the server";
  }
}

status confirmations::admit(const question_about& about, steady::time_point now, steady::time_point expires) {
  // Parked questions past their expiry go (a decided one is remembered for late answers), so
  // a client that never retries does not keep its budget spent.
  for (auto it = open_.begin(); it != open_.end();) {
    if (!it->second.parked || it->second.expires > now) {
      ++it;
      continue;
    }
    if (it->second.outcome) remember(it->first, std::move(it->second));
    it = open_.erase(it);
  }
  std::size_t mine = 0;
  auto soonest = expires;
  for (const auto& [other_id, q] : open_)
    if (q.about.caller == about.caller) {
      ++mine;
      if (q.parked) soonest = std::min(soonest, q.expires);
    }
  if (mine >= max_open_per_caller) {
    std::string when = soonest == steady::time_point::max() ? std::string("once some are answered")
                                                            : "in " + seconds_until(soonest, now) + " s when the oldest expires";
    return make_error(errc::busy, std::to_string(mine) + " permission questions of this client are waiting for the user (the limit is " +
                                      std::to_string(max_open_per_caller) + "); answer them, or retry " + when);
  }
  if (open_.size() >= max_open)
    return make_error(errc::busy, std::to_string(open_.size()) + " permission questions are waiting for the user (the limit is " +
                                      std::to_string(max_open) + "); retry once some are answered or have expired");
  return ok();
}

status confirmations::open(const std::string& id, question_about about) {
  if (auto admitted = admit(about, steady::now(), steady::time_point::max()); !admitted) return admitted;
  open_[id] = question{std::move(about), false, steady::time_point::max(), std::nullopt};
  return ok();
}

status confirmations::park(const std::string& id, question_about about, steady::time_point expires) {
  if (auto it = open_.find(id); it != open_.end()) {
    it->second.expires = std::max(it->second.expires, expires);
    return ok();
  }
  if (auto admitted = admit(about, steady::now(), expires); !admitted) return admitted;
  open_[id] = question{std::move(about), true, expires, std::nullopt};
  return ok();
}

net::awaitable<verdict> confirmations::wait(const std::string& id, const std::shared_ptr<tools::cancel_source>& cancel) {
  // Closed however the wait ends (a destroyed frame at shutdown included).
  struct closer {
    confirmations* self;
    const std::string& id;
    ~closer() {
      auto it = self->open_.find(id);
      if (it == self->open_.end()) return;
      auto q = std::move(it->second);
      self->open_.erase(it);
      if (q.outcome) self->remember(id, std::move(q));
    }
  } guard{this, id};
  // Declared after the guard: the cancel is unhooked before the question closes.
  cancel_link link(cancel, [this, id] { answer(id, decision::cancelled, audit::decided_by::cancelled); });
  for (;;) {
    auto it = open_.find(id);
    if (it == open_.end()) co_return verdict{decision::cancelled, audit::decided_by::cancelled};
    if (it->second.outcome) co_return *it->second.outcome;
    co_await settled_.wait();
  }
}

answer_outcome confirmations::answer(const std::string& id, decision d, audit::decided_by by) {
  const auto now = steady::now();
  if (auto it = open_.find(id); it != open_.end()) {
    auto& q = it->second;
    if (q.parked && !q.outcome && q.expires <= now) return {};
    if (q.outcome) return lose(id, q.about, *q.outcome, d, by);
    q.outcome = verdict{d, by};
    if (!q.parked) settled_.notify_all();
    return answer_outcome{answer_outcome::kind::decided, std::nullopt, {}};
  }
  for (const auto& r : decided_)
    if (r.id == id && r.until > now) return lose(id, r.about, r.outcome, d, by);
  return {};
}

answer_outcome confirmations::lose(const std::string& id, const question_about& about, verdict winner, decision d,
                                   audit::decided_by by) {
  answer_outcome out{answer_outcome::kind::lost, winner, {}};
  // Only a person's answer is news: a cancel after the decision changes nothing to tell.
  if (!audit::is_person(by)) return out;
  out.notice = "Your answer in " + std::string(asker_words(by)) + " (" + std::string(answer_name(d)) + ") was not used: ";
  if (audit::is_person(winner.by))
    out.notice += std::string(asker_words(winner.by)) + " had already decided (" + decision_words(winner.what) +
                  "), and that decision took effect.";
  else
    out.notice += "the question had already been settled: the call " + decision_words(winner.what) + ".";
  audit::audit_entry e;
  e.timestamp = iso8601_now();
  e.tool = about.tool;
  e.plugin = about.plugin;
  e.success = false;
  e.decided_by = winner.by;
  e.lost = audit::audit_entry::lost_answer{by, std::string(answer_name(d))};
  e.error = audit::make_audit_error(audit::audit_code::answer_not_used, out.notice);
  if (auto st = audit_.append(std::move(e)); !st) log::warn("audit log: " + st.err().message);
  log::info("permission question " + id.substr(0, 8) + " of " + about.tool + ": " + out.notice);
  return out;
}

std::optional<verdict> confirmations::take_parked(const std::string& id) {
  auto it = open_.find(id);
  if (it == open_.end() || !it->second.parked || !it->second.outcome) return std::nullopt;
  auto v = *it->second.outcome;
  auto q = std::move(it->second);
  open_.erase(it);
  remember(id, std::move(q));
  return v;
}

void confirmations::remember(const std::string& id, question q) {
  const auto now = steady::now();
  while (!decided_.empty() && (decided_.size() >= max_remembered || decided_.front().until <= now)) decided_.pop_front();
  decided_.push_back(decided_question{id, std::move(q.about), *q.outcome, now + remember_decided_for});
}

void confirmations::settle_all(verdict v) {
  for (auto& [id, q] : open_)
    if (!q.parked && !q.outcome) q.outcome = v;
  settled_.notify_all();
}

std::size_t confirmations::waiting() const {
  return static_cast<std::size_t>(std::count_if(open_.begin(), open_.end(), [](const auto& kv) { return !kv.second.parked; }));
}

std::vector<std::string> confirmations::open_ids() const {
  std::vector<std::string> ids;
  for (const auto& [id, q] : open_) ids.push_back(id);
  return ids;
}

}  // namespace opentabs::app
