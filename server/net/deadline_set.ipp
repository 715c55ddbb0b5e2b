// The definitions of basic_deadline_set (see deadline_set.hpp), included where it is
// instantiated: deadline_set.cpp for the server's steady timer, the tests for a manual clock.
#pragma once

#include <algorithm>
#include <cstdint>

#include "net/deadline_set.hpp"

namespace opentabs::net {


// Shared with the timer's pending handler, which may run after the set is gone.
template <class Timer>
struct basic_deadline_set<Timer>::state {
  state(asio::any_io_executor ex, when_empty idle) : timer(std::move(ex)), keep_when_empty(idle == when_empty::keep_timer) {}
  Timer timer;
  bool keep_when_empty;
  time_point armed = never;
  std::uint64_t generation = 0;  // a handler of an older arming (cancelled or superseded) does nothing
  std::vector<entry*> entries;
  bool closed = false;

  static void arm(const std::shared_ptr<state>& s, time_point t) {
    s->armed = t;
    const auto generation = ++s->generation;
    s->timer.expires_at(t);
    s->timer.async_wait([s, generation](const std::error_code& ec) { fire(s, generation, ec); });
  }

  static void fire(const std::shared_ptr<state>& s, std::uint64_t generation, const std::error_code& ec) {
    if (ec || s->closed || generation != s->generation) return;
    s->armed = never;
    const auto now = clock_type::now();
    // By index: a callback may set a new deadline (its own included), not add or remove entries.
    for (std::size_t i = 0; i < s->entries.size(); ++i) {
      entry* e = s->entries[i];
      if (e->deadline_ > now) continue;
      e->deadline_ = never;
      e->expired_ = true;
      e->on_expired_();
    }
    time_point next = never;
    for (entry* e : s->entries) next = std::min(next, e->deadline_);
    if (next < s->armed) arm(s, next);
  }

  void disarm() {
    if (armed == never) return;
    armed = never;
    ++generation;
    timer.cancel();
  }
};

template <class Timer>
basic_deadline_set<Timer>::basic_deadline_set(asio::any_io_executor ex, when_empty idle)
    : state_(std::make_shared<state>(std::move(ex), idle)) {}

template <class Timer>
basic_deadline_set<Timer>::~basic_deadline_set() {
  state_->closed = true;
  state_->disarm();
}

template <class Timer>
typename basic_deadline_set<Timer>::time_point basic_deadline_set<Timer>::armed() const { return state_->armed; }

template <class Timer>
basic_deadline_set<Timer>::entry::entry(basic_deadline_set& set, std::function<void()> on_expired)
    : state_(set.state_), on_expired_(std::move(on_expired)) {
  state_->entries.push_back(this);
}

template <class Timer>
basic_deadline_set<Timer>::entry::~entry() {
  std::erase(state_->entries, this);
  // Nobody left to watch: a pending wait would hold io_context::run() open.
  if (state_->entries.empty() && !state_->keep_when_empty) state_->disarm();
}

template <class Timer>
void basic_deadline_set<Timer>::entry::expire_at(time_point t) {
  deadline_ = t;
  expired_ = false;
  if (t < state_->armed && !state_->closed) state::arm(this->state_, t);
}

template <class Timer>
void basic_deadline_set<Timer>::entry::clear() { deadline_ = never; }

}  // namespace opentabs::net
