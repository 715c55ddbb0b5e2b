#include "plugins/bounded_load.hpp"

#include <doctest/doctest.h>

#include "temp_tree.hpp"

using namespace opentabs::plugins;
using opentabs::testing::temp_tree;
using opentabs::testing::write_minimal_plugin;

TEST_CASE("load_plugin_bounded: a load within the deadline gives the plugin") {
  temp_tree t;
  opentabs::bounded_calls reads(kMaxStuckLoads);
  write_minimal_plugin(t, "p/quick", "quick");
  auto r = load_plugin_bounded(t / "p/quick", "local", {}, {}, reads);
  REQUIRE(r);
  CHECK(r->name == "quick");
}

TEST_CASE("load_plugin_bounded: a load that misses the deadline fails that plugin and says why") {
  temp_tree t;
  opentabs::bounded_calls reads(kMaxStuckLoads);
  write_minimal_plugin(t, "p/slow", "slow");
  write_minimal_plugin(t, "p/other", "other");
  bounded_load_options bounds;
  bounds.deadline = std::chrono::milliseconds(20);
  bounds.test_delay = std::chrono::milliseconds(2'000);
  bounds.delay_dir_name = "slow";
  auto slow = load_plugin_bounded(t / "p/slow", "local", {}, bounds, reads);
  REQUIRE_FALSE(slow);
  CHECK(slow.err().is(opentabs::errc::timeout));
  CHECK(slow.err().message.find("did not finish within 20 ms") != std::string::npos);
  // Only the named folder sleeps (the default deadline, so a busy machine cannot fail this).
  bounds.deadline = kDefaultLoadDeadline;
  auto other = load_plugin_bounded(t / "p/other", "local", {}, bounds, reads);
  REQUIRE(other);
  CHECK(other->name == "other");
}

TEST_CASE("load_plugin_bounded: a hung folder reloaded many times holds one thread; healthy plugins keep loading") {
  temp_tree t;
  opentabs::bounded_calls reads(kMaxStuckLoads);
  write_minimal_plugin(t, "p/hung-again", "hung-again");
  write_minimal_plugin(t, "p/healthy", "healthy");
  bounded_load_options bounds;
  bounds.deadline = std::chrono::milliseconds(20);
  bounds.test_delay = std::chrono::milliseconds(60'000);  // ends after the test binary does
  bounds.delay_dir_name = "hung-again";
  auto first = load_plugin_bounded(t / "p/hung-again", "local", {}, bounds, reads);
  REQUIRE_FALSE(first);
  CHECK(first.err().is(opentabs::errc::timeout));
  // More reloads than kMaxStuckLoads while the first read still hangs: each waits for that
  // same read and fails that plugin at its deadline, adding no thread.
  for (std::size_t i = 0; i < kMaxStuckLoads + 2; ++i) {
    auto again = load_plugin_bounded(t / "p/hung-again", "local", {}, bounds, reads);
    REQUIRE_FALSE(again);
    CHECK(again.err().is(opentabs::errc::timeout));
  }
  bounds.deadline = kDefaultLoadDeadline;
  auto healthy = load_plugin_bounded(t / "p/healthy", "local", {}, bounds, reads);
  REQUIRE(healthy);
  CHECK(healthy->name == "healthy");
}
