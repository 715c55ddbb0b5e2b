// Parked permission questions: a side panel answer given between two rounds of a
// 2026-07-28 prompt is kept for the client's retry; parked questions are bounded and expire.
#include <doctest/doctest.h>

#include "app/confirmations.hpp"

using namespace opentabs;
using namespace opentabs::app;

namespace {
auto later() { return std::chrono::steady_clock::now() + std::chrono::minutes(10); }
}  // namespace

TEST_CASE("a side panel answer to a parked question waits for the retry, once") {
  asio::io_context io;
  confirmations c(io.get_executor());
  c.park("q1", later());
  CHECK_FALSE(c.take_parked("q1"));  // nobody answered yet; still parked
  CHECK(c.settle("q1", decision::deny));
  CHECK_FALSE(c.settle("q1", decision::allow));  // the first answer decides
  auto d = c.take_parked("q1");
  REQUIRE(d);
  CHECK(*d == decision::deny);
  CHECK_FALSE(c.take_parked("q1"));
  CHECK(c.parked() == 0);
}

TEST_CASE("unpark forgets a question the agent answered; an expired question takes no answer") {
  asio::io_context io;
  confirmations c(io.get_executor());
  c.park("q1", later());
  c.unpark("q1");
  CHECK_FALSE(c.settle("q1", decision::allow));
  c.park("old", std::chrono::steady_clock::now() - std::chrono::seconds(1));
  CHECK_FALSE(c.settle("old", decision::allow));
}

TEST_CASE("parked questions are bounded: the one expiring first gives way") {
  asio::io_context io;
  confirmations c(io.get_executor());
  auto base = later();
  for (std::size_t i = 0; i < confirmations::max_parked + 10; ++i) c.park("q" + std::to_string(i), base + std::chrono::seconds(i));
  CHECK(c.parked() == confirmations::max_parked);
  CHECK_FALSE(c.settle("q0", decision::allow));
  CHECK(c.settle("q" + std::to_string(confirmations::max_parked + 9), decision::allow));
}
