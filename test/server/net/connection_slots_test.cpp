// Connection slots: unauthenticated sockets share capacity - reserved slots; when that
// share (or the table) is full, the oldest idle unauthenticated connection is evicted for
// the newcomer; authenticated and busy connections are never chosen for that.  One caller
// holds at most per_caller authenticated connections (issue 38: one client's 1,100 streams
// blocked /health, MCP and the extension).
#include <doctest/doctest.h>

#include <memory>
#include <optional>
#include <vector>

#include "net/connection_slots.hpp"

using opentabs::net::connection_slots;

namespace {

struct table {
  connection_slots slots;
  std::vector<connection_slots::id> closed;
  table(std::size_t capacity, std::size_t reserved, std::size_t per_caller = 100) : slots(capacity, reserved, per_caller) {}
  std::optional<connection_slots::id> accept() {
    // The id is only known after admit; the callback records it through a shared cell.
    auto cell = std::make_shared<connection_slots::id>(0);
    auto id = slots.admit([this, cell] { closed.push_back(*cell); });
    if (id) *cell = *id;
    return id;
  }
};

}  // namespace

TEST_CASE("slots: the unauthenticated share is capacity minus the reserve; then the oldest idle one goes") {
  table t(6, 2);
  CHECK(t.slots.unauthenticated_capacity() == 4);
  std::vector<connection_slots::id> ids;
  for (int i = 0; i < 4; ++i) ids.push_back(*t.accept());
  CHECK(t.closed.empty());
  auto fifth = t.accept();
  REQUIRE(fifth);
  REQUIRE(t.closed.size() == 1);
  CHECK(t.closed[0] == ids[0]);  // oldest first
  CHECK_FALSE(t.slots.holds(ids[0]));
  CHECK(t.slots.size() == 4);
  t.slots.release(ids[0]);  // the evicted connection's coroutine ends later: a no-op
  CHECK(t.slots.size() == 4);
}

TEST_CASE("slots: authenticated connections keep their slots and use the reserve") {
  table t(6, 2);
  auto ext = *t.accept();
  t.slots.mark_authenticated(ext, "proof extension");  // the extension's /ws
  auto client = *t.accept();
  t.slots.mark_authenticated(client, "bearer");  // an MCP client with the bearer token
  for (int i = 0; i < 20; ++i) REQUIRE(t.accept());  // an attacker's idle sockets churn
  CHECK(t.slots.holds(ext));
  CHECK(t.slots.holds(client));
  CHECK(t.slots.unauthenticated() == 4);
  CHECK(t.slots.size() == 6);
  // A new authenticated connection arrives as unauthenticated and takes the oldest idle slot.
  auto newcomer = *t.accept();
  t.slots.mark_authenticated(newcomer, "bearer");
  CHECK(t.slots.size() == 6);
  CHECK(t.slots.unauthenticated() == 3);
}

TEST_CASE("slots: busy unauthenticated connections are skipped; with nothing evictable the newcomer is refused") {
  table t(3, 1);
  auto a = *t.accept();
  auto b = *t.accept();
  t.slots.set_busy(a, true);
  auto c = t.accept();
  REQUIRE(c);
  REQUIRE(t.closed.size() == 1);
  CHECK(t.closed[0] == b);  // a is older but inside a handler
  t.slots.set_busy(*c, true);
  CHECK_FALSE(t.accept());  // a and c busy, no authenticated slot to give
  t.slots.set_busy(a, false);
  CHECK(t.accept());
  CHECK(t.closed.back() == a);
}

TEST_CASE("slots: a full table of authenticated connections refuses newcomers") {
  table t(2, 1);
  auto a = *t.accept();
  t.slots.mark_authenticated(a, "bearer");
  auto b = *t.accept();
  t.slots.mark_authenticated(b, "bearer");
  CHECK_FALSE(t.accept());
  CHECK(t.closed.empty());
  t.slots.release(a);
  CHECK(t.accept());
}

TEST_CASE("slots: eviction takes the oldest idle unauthenticated one, never an authenticated one") {
  table t(10, 2);
  auto a = *t.accept();
  t.slots.mark_authenticated(a, "bearer");
  auto b = *t.accept();
  auto c = *t.accept();
  CHECK(t.slots.evict_oldest_idle_unauthenticated());
  CHECK(t.closed == std::vector<connection_slots::id>{b});
  CHECK(t.slots.evict_oldest_idle_unauthenticated());
  CHECK(t.closed.back() == c);
  CHECK_FALSE(t.slots.evict_oldest_idle_unauthenticated());
  CHECK(t.slots.holds(a));
}

TEST_CASE("slots: a reserve as large as the capacity still leaves one unauthenticated slot") {
  table t(4, 10);
  CHECK(t.slots.unauthenticated_capacity() == 1);
  auto a = *t.accept();
  auto b = t.accept();
  REQUIRE(b);
  CHECK(t.closed == std::vector<connection_slots::id>{a});
}

TEST_CASE("slots: one caller's connections beyond its budget close its own oldest idle one, never another caller's") {
  table t(20, 4, 3);
  auto ext = *t.accept();
  REQUIRE(t.slots.mark_authenticated(ext, "proof extension"));
  std::vector<connection_slots::id> mine;
  for (int i = 0; i < 3; ++i) {
    mine.push_back(*t.accept());
    REQUIRE(t.slots.mark_authenticated(mine.back(), "bearer"));
  }
  CHECK(t.slots.held_by("bearer") == 3);
  auto fourth = *t.accept();
  CHECK(t.slots.mark_authenticated(fourth, "bearer"));
  REQUIRE(t.closed.size() == 1);
  CHECK(t.closed[0] == mine[0]);  // its own oldest idle one
  CHECK(t.slots.held_by("bearer") == 3);
  CHECK(t.slots.holds(ext));
  CHECK(t.slots.held_by("proof extension") == 1);
  t.slots.release(mine[0]);  // the evicted connection's coroutine ends later: a no-op
  CHECK(t.slots.held_by("bearer") == 3);
}

TEST_CASE("slots: a caller whose budget is all held streams is refused the next one; others still get in") {
  table t(20, 4, 2);
  auto a = *t.accept();
  auto b = *t.accept();
  REQUIRE(t.slots.mark_authenticated(a, "bearer"));
  REQUIRE(t.slots.mark_authenticated(b, "bearer"));
  t.slots.set_busy(a, true);
  t.slots.set_busy(b, true);
  auto c = *t.accept();
  CHECK_FALSE(t.slots.mark_authenticated(c, "bearer"));
  CHECK_FALSE(t.slots.is_authenticated(c));
  CHECK(t.closed.empty());
  auto other = *t.accept();
  CHECK(t.slots.mark_authenticated(other, "proof other-client"));
  // A held stream ends: the budget has room again.
  t.slots.set_busy(a, false);
  t.slots.release(a);
  CHECK(t.slots.mark_authenticated(c, "bearer"));
  CHECK(t.slots.held_by("bearer") == 2);
}

TEST_CASE("slots: a held stream whose peer went away gives its slot back when its caller needs one") {
  connection_slots slots(20, 4, 2);
  bool a_gone = false;
  std::vector<connection_slots::id> closed;
  auto cell_a = std::make_shared<connection_slots::id>(0);
  auto a = *slots.admit([&closed, cell_a] { closed.push_back(*cell_a); }, [&a_gone] { return a_gone; });
  *cell_a = a;
  auto b = *slots.admit([] {}, [] { return false; });
  REQUIRE(slots.mark_authenticated(a, "bearer"));
  REQUIRE(slots.mark_authenticated(b, "bearer"));
  slots.set_busy(a, true);
  slots.set_busy(b, true);
  auto c = *slots.admit([] {}, [] { return false; });
  CHECK_FALSE(slots.mark_authenticated(c, "bearer"));  // both streams still have their clients
  a_gone = true;                                       // the client closed a's socket
  CHECK(slots.mark_authenticated(c, "bearer"));
  CHECK(closed == std::vector<connection_slots::id>{a});
  CHECK_FALSE(slots.holds(a));
  CHECK(slots.held_by("bearer") == 2);
}

TEST_CASE("slots: a full table reaps a connection whose peer is gone before refusing a newcomer") {
  connection_slots slots(2, 1, 10);
  bool gone = false;
  auto a = *slots.admit([] {}, [&gone] { return gone; });
  REQUIRE(slots.mark_authenticated(a, "proof x"));
  slots.set_busy(a, true);
  auto b = *slots.admit([] {}, [] { return false; });
  slots.set_busy(b, true);
  CHECK_FALSE(slots.admit([] {}));
  gone = true;
  CHECK(slots.admit([] {}));
  CHECK_FALSE(slots.holds(a));
  CHECK(slots.held_by("proof x") == 0);
}
