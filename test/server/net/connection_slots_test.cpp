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
  t.slots.admit_request(ext, "proof extension");  // the extension's /ws
  auto client = *t.accept();
  t.slots.admit_request(client, "bearer");  // an MCP client with the bearer token
  for (int i = 0; i < 20; ++i) REQUIRE(t.accept());  // an attacker's idle sockets churn
  CHECK(t.slots.holds(ext));
  CHECK(t.slots.holds(client));
  CHECK(t.slots.unauthenticated() == 4);
  CHECK(t.slots.size() == 6);
  // A new authenticated connection arrives as unauthenticated and takes the oldest idle slot.
  auto newcomer = *t.accept();
  t.slots.admit_request(newcomer, "bearer");
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

TEST_CASE("slots: a full table of authenticated connections inside requests refuses newcomers") {
  table t(2, 1);
  auto a = *t.accept();
  t.slots.admit_request(a, "bearer");
  t.slots.set_busy(a, true);
  auto b = *t.accept();
  t.slots.admit_request(b, "bearer");
  t.slots.set_busy(b, true);
  CHECK_FALSE(t.accept());
  CHECK(t.closed.empty());
  t.slots.release(a);
  CHECK(t.accept());
}

TEST_CASE("slots: eviction takes the oldest idle unauthenticated one, never an authenticated one") {
  table t(10, 2);
  auto a = *t.accept();
  t.slots.admit_request(a, "bearer");
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

TEST_CASE("slots: a caller with its budget of connections inside requests is refused the next request; idle ones do not count") {
  table t(20, 4, 2);
  auto ext = *t.accept();
  REQUIRE(t.slots.admit_request(ext, "proof extension"));
  t.slots.set_busy(ext, true);  // the extension's /ws: inside its handler for good
  auto a = *t.accept();
  auto b = *t.accept();
  REQUIRE(t.slots.admit_request(a, "bearer"));
  t.slots.set_busy(a, true);
  REQUIRE(t.slots.admit_request(b, "bearer"));
  t.slots.set_busy(b, true);
  CHECK(t.slots.busy_of("bearer") == 2);
  auto c = *t.accept();
  CHECK_FALSE(t.slots.admit_request(c, "bearer"));  // a third held stream: refused
  CHECK(t.closed.empty());
  auto other = *t.accept();
  CHECK(t.slots.admit_request(other, "proof other-client"));  // another caller still gets in
  // A stream ends (its connection stays, idle): the caller may start a request again.
  t.slots.set_busy(a, false);
  CHECK(t.slots.busy_of("bearer") == 1);
  CHECK(t.slots.admit_request(c, "bearer"));
  t.slots.release(b);
  CHECK(t.slots.busy_of("bearer") == 0);
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
  REQUIRE(slots.admit_request(a, "bearer"));
  slots.set_busy(a, true);
  REQUIRE(slots.admit_request(b, "bearer"));
  slots.set_busy(b, true);
  auto c = *slots.admit([] {}, [] { return false; });
  CHECK_FALSE(slots.admit_request(c, "bearer"));  // both streams still have their clients
  a_gone = true;                                 // the client closed a's socket
  CHECK(slots.admit_request(c, "bearer"));
  CHECK(closed == std::vector<connection_slots::id>{a});
  CHECK_FALSE(slots.holds(a));
  CHECK(slots.busy_of("bearer") == 1);
}

TEST_CASE("slots: a table full of authenticated connections gives the largest holder's oldest idle one, then one whose peer is gone") {
  connection_slots slots(4, 1, 10);
  std::vector<int> closed;
  auto x = *slots.admit([&closed] { closed.push_back(1); });
  REQUIRE(slots.admit_request(x, "proof x"));  // idle, but its caller holds one only
  bool gone = false;
  auto y1 = *slots.admit([&closed] { closed.push_back(2); }, [&gone] { return gone; });
  auto y2 = *slots.admit([&closed] { closed.push_back(3); });
  auto y3 = *slots.admit([&closed] { closed.push_back(4); });
  for (auto y : {y1, y2, y3}) REQUIRE(slots.admit_request(y, "bearer"));
  slots.set_busy(y1, true);
  auto newcomer = slots.admit([] {});  // y2 goes: the oldest idle connection of the caller holding the most
  REQUIRE(newcomer);
  CHECK(closed == std::vector<int>{3});
  CHECK(slots.holds(x));
  slots.set_busy(*newcomer, true);
  slots.set_busy(y3, true);
  slots.set_busy(x, true);
  CHECK_FALSE(slots.admit([] {}));  // nothing idle, nobody gone
  gone = true;
  CHECK(slots.admit([] {}));
  CHECK(closed == std::vector<int>{3, 2});
  CHECK(slots.busy_of("bearer") == 1);
}
