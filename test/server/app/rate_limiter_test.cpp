#include <doctest/doctest.h>

#include "app/rate_limiter.hpp"

using namespace opentabs::app;
using namespace std::chrono_literals;

TEST_CASE("at most N events in any window, with an injected clock") {
  rate_limiter r(3, 60s);
  auto t0 = rate_limiter::clock::now();
  CHECK(r.try_acquire(t0));
  CHECK(r.try_acquire(t0 + 1s));
  CHECK(r.try_acquire(t0 + 2s));
  CHECK_FALSE(r.try_acquire(t0 + 30s));
  CHECK_FALSE(r.try_acquire(t0 + 59s));
  CHECK(r.try_acquire(t0 + 60s));  // the first event left the window
  CHECK_FALSE(r.try_acquire(t0 + 60s));
  CHECK(r.in_window(t0 + 62s) == 1);
}

TEST_CASE("refused attempts are not counted") {
  rate_limiter r(1, 10s);
  auto t0 = rate_limiter::clock::now();
  CHECK(r.try_acquire(t0));
  for (int i = 0; i < 100; ++i) CHECK_FALSE(r.try_acquire(t0 + 5s));
  CHECK(r.try_acquire(t0 + 10s));
}
