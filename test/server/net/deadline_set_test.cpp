// deadline_set: a passed deadline runs its entry's callback once; a later deadline does not
// re-arm the timer (found when it fires), an earlier one does; a cleared deadline never fires;
// with no entry left the timer is cancelled, so io_context::run() returns at once.
#include "net/deadline_set.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <optional>

using namespace opentabs;
using namespace std::chrono_literals;
using net::steady_clock;

TEST_CASE("a passed deadline runs the callback once and marks the entry expired") {
  asio::io_context io;
  net::deadline_set set(io.get_executor());
  int fired = 0;
  net::deadline_set::entry e(set, [&] { ++fired; });
  e.expire_at(steady_clock::now() + 5ms);
  CHECK_FALSE(e.expired());
  io.run_for(200ms);
  CHECK(fired == 1);
  CHECK(e.expired());
  CHECK(e.deadline() == net::deadline_set::never);
}

TEST_CASE("a cleared deadline does not fire") {
  asio::io_context io;
  net::deadline_set set(io.get_executor());
  int fired = 0;
  net::deadline_set::entry e(set, [&] { ++fired; });
  e.expire_at(steady_clock::now() + 5ms);
  e.clear();
  io.run_for(100ms);
  CHECK(fired == 0);
  CHECK_FALSE(e.expired());
}

TEST_CASE("a later deadline leaves the timer armed; it re-arms when it fires early") {
  asio::io_context io;
  net::deadline_set set(io.get_executor());
  int fired = 0;
  steady_clock::time_point fired_at{};
  net::deadline_set::entry e(set, [&] {
    ++fired;
    fired_at = steady_clock::now();
  });
  const auto first = steady_clock::now() + 10ms;
  e.expire_at(first);
  CHECK(set.armed() == first);
  const auto later = first + 40ms;
  e.expire_at(later);  // as a read that made progress moves its idle deadline
  CHECK(set.armed() == first);
  io.run_for(300ms);
  CHECK(fired == 1);
  CHECK(fired_at >= later);
}

TEST_CASE("an earlier deadline re-arms the timer, and each entry fires at its own") {
  asio::io_context io;
  net::deadline_set set(io.get_executor());
  int a_fired = 0, b_fired = 0;
  net::deadline_set::entry a(set, [&] { ++a_fired; });
  net::deadline_set::entry b(set, [&] { ++b_fired; });
  a.expire_at(steady_clock::now() + 10s);
  const auto soon = steady_clock::now() + 5ms;
  b.expire_at(soon);
  CHECK(set.armed() == soon);
  io.run_for(200ms);
  CHECK(b_fired == 1);
  CHECK(a_fired == 0);
  CHECK(set.armed() == a.deadline());  // re-armed for what is left
  a.clear();
}

TEST_CASE("without entries the timer is cancelled: run() does not wait for a far deadline") {
  asio::io_context io;
  net::deadline_set set(io.get_executor());
  int fired = 0;
  {
    net::deadline_set::entry e(set, [&] { ++fired; });
    e.expire_at(steady_clock::now() + 1h);
  }
  CHECK(set.armed() == net::deadline_set::never);
  io.poll();  // runs the cancelled wait's handler; an armed timer would still be work
  CHECK(io.stopped());
  CHECK(fired == 0);
}

TEST_CASE("an entry outliving its set neither fires nor crashes") {
  asio::io_context io;
  auto set = std::make_unique<net::deadline_set>(io.get_executor());
  int fired = 0;
  net::deadline_set::entry e(*set, [&] { ++fired; });
  e.expire_at(steady_clock::now() + 5ms);
  set.reset();
  io.run_for(100ms);
  CHECK(fired == 0);
  e.expire_at(steady_clock::now() + 1ms);  // the set is closed: nothing is armed
  io.run_for(50ms);
  CHECK(fired == 0);
}

TEST_CASE("a callback may set its entry's next deadline (a keep-alive every period)") {
  asio::io_context io;
  net::deadline_set set(io.get_executor());
  int fired = 0;
  std::optional<net::deadline_set::entry> e;
  e.emplace(set, [&] {
    if (++fired < 3) e->expire_at(steady_clock::now() + 2ms);
  });
  net::deadline_set::entry far(set, [] {});
  far.expire_at(steady_clock::now() + 1h);  // the timer must not be re-armed for this one first
  e->expire_at(steady_clock::now() + 2ms);
  io.run_for(500ms);
  CHECK(fired == 3);
  CHECK(set.armed() == far.deadline());
  far.clear();
}

TEST_CASE("keep_timer: entries that come and go arm the timer once, and it still fires for the live one") {
  asio::io_context io;
  net::deadline_set set(io.get_executor(), net::deadline_set::when_empty::keep_timer);
  const auto first = steady_clock::now() + 20ms;
  {
    net::deadline_set::entry a(set, [] {});
    a.expire_at(first);
  }
  CHECK(set.armed() == first);  // kept: the next entry's later deadline needs no new arming
  int fired = 0;
  net::deadline_set::entry b(set, [&] { ++fired; });
  b.expire_at(first + 10ms);
  CHECK(set.armed() == first);
  io.run_for(300ms);
  CHECK(fired == 1);
}
