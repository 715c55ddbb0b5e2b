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
  c.park("q1", "client", later());
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
  c.park("q1", "client", later());
  c.unpark("q1");
  CHECK_FALSE(c.settle("q1", decision::allow));
  c.park("old", "client", std::chrono::steady_clock::now() - std::chrono::seconds(1));
  CHECK_FALSE(c.settle("old", decision::allow));
}

TEST_CASE("parked questions are bounded per client: a flooding client is refused, nobody else's question is dropped") {
  asio::io_context io;
  confirmations c(io.get_executor());
  auto base = later();
  REQUIRE(c.park("mine", "person", base));
  for (std::size_t i = 0; i < confirmations::max_parked_per_client; ++i)
    REQUIRE(c.park("flood" + std::to_string(i), "flooder", base + std::chrono::seconds(i)));
  auto refused = c.park("flood-more", "flooder", base);
  REQUIRE_FALSE(refused);
  CHECK(refused.err().is(errc::busy));
  CHECK(refused.err().message.find("permission questions of this client are waiting") != std::string::npos);
  // A question already parked is extended, never refused.
  CHECK(c.park("flood0", "flooder", base + std::chrono::minutes(1)));
  // The person's question is still there to answer.
  CHECK(c.settle("mine", decision::allow));
  CHECK(*c.take_parked("mine") == decision::allow);
}

TEST_CASE("parked questions are bounded in all: once full, new ones are refused and the parked ones stay") {
  asio::io_context io;
  confirmations c(io.get_executor());
  auto base = later();
  for (std::size_t i = 0; i < confirmations::max_parked; ++i)
    REQUIRE(c.park("q" + std::to_string(i), "client" + std::to_string(i), base + std::chrono::seconds(i)));
  auto refused = c.park("one-more", "newcomer", base);
  REQUIRE_FALSE(refused);
  CHECK(refused.err().message.find("retry once some are answered") != std::string::npos);
  CHECK(c.parked() == confirmations::max_parked);
  CHECK(c.settle("q0", decision::allow));
}
