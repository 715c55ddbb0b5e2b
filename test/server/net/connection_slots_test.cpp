// Connection slots: unauthenticated sockets share capacity - reserved slots; when that
// share (or the table) is full, the oldest idle unauthenticated connection is evicted for
// the newcomer; authenticated and busy connections are never chosen.
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
  table(std::size_t capacity, std::size_t reserved) : slots(capacity, reserved) {}
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
  t.slots.mark_authenticated(ext);  // the extension's /ws
  auto client = *t.accept();
  t.slots.mark_authenticated(client);  // an MCP client with the bearer token
  for (int i = 0; i < 20; ++i) REQUIRE(t.accept());  // an attacker's idle sockets churn
  CHECK(t.slots.holds(ext));
  CHECK(t.slots.holds(client));
  CHECK(t.slots.unauthenticated() == 4);
  CHECK(t.slots.size() == 6);
  // A new authenticated connection arrives as unauthenticated and takes the oldest idle slot.
  auto newcomer = *t.accept();
  t.slots.mark_authenticated(newcomer);
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
  t.slots.mark_authenticated(a);
  auto b = *t.accept();
  t.slots.mark_authenticated(b);
  CHECK_FALSE(t.accept());
  CHECK(t.closed.empty());
  t.slots.release(a);
  CHECK(t.accept());
}

TEST_CASE("slots: eviction takes the oldest idle unauthenticated one, never an authenticated one") {
  table t(10, 2);
  auto a = *t.accept();
  t.slots.mark_authenticated(a);
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
