// Driving an io_context from a unit test: start a coroutine whose result lands in an
// optional, then run handlers until a condition holds (bounded, so a hang fails the test).
#pragma once

#include <doctest/doctest.h>

#include <chrono>
#include <exception>
#include <optional>
#include <utility>

#include "net/asio.hpp"

namespace opentabs::testing {

template <class T>
void spawn_into(asio::io_context& io, asio::awaitable<T> work, std::optional<T>& out) {
  asio::co_spawn(io, std::move(work), [&out](std::exception_ptr e, T r) {
    REQUIRE_FALSE(e);
    out = std::move(r);
  });
}

template <class Done>
void run_until(asio::io_context& io, Done done) {
  io.restart();
  for (int i = 0; i < 10'000 && !done(); ++i) io.run_one_for(std::chrono::milliseconds(10));
  REQUIRE(done());
}

}  // namespace opentabs::testing
