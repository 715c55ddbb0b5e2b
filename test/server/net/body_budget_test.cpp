// The shared budget for bodies of unauthenticated requests: leases add up to the capacity,
// a request that would exceed it is refused, and bytes come back when a lease ends (also
// when it is moved from, and when the budget object itself is gone first).
#include <doctest/doctest.h>

#include <utility>

#include "net/body_budget.hpp"

using opentabs::net::body_budget;

TEST_CASE("body budget: leases share the capacity and give their bytes back") {
  body_budget budget(100);
  auto a = budget.take(60);
  REQUIRE(a);
  CHECK(a->bytes() == 60);
  CHECK(budget.in_use() == 60);
  CHECK_FALSE(budget.take(41));  // 60 + 41 > 100
  auto b = budget.take(40);      // exactly full
  REQUIRE(b);
  CHECK(budget.in_use() == 100);
  CHECK_FALSE(budget.take(1));
  a.reset();
  CHECK(budget.in_use() == 40);
  CHECK(budget.take(60));  // a temporary lease: taken and given back at once
  CHECK(budget.in_use() == 40);
}

TEST_CASE("body budget: a moved lease gives its bytes back once") {
  body_budget budget(10);
  auto a = budget.take(7);
  REQUIRE(a);
  body_budget::lease moved = std::move(*a);
  a.reset();  // the moved-from lease holds nothing
  CHECK(budget.in_use() == 7);
  auto c = budget.take(3);
  REQUIRE(c);
  moved = std::move(*c);  // assigning releases the 7 it held, keeps the 3
  CHECK(budget.in_use() == 3);
}

TEST_CASE("body budget: more than the capacity is refused even when the pool is empty") {
  body_budget budget(10);
  CHECK_FALSE(budget.take(11));
  CHECK(budget.in_use() == 0);
  CHECK(budget.take(0));
}

TEST_CASE("body budget: a lease outliving the budget object is safe") {
  std::optional<body_budget::lease> kept;
  {
    body_budget budget(10);
    kept = budget.take(5);
    REQUIRE(kept);
  }
  kept.reset();  // gives back to the pool it shares, not to freed memory
  CHECK_FALSE(kept);
}
