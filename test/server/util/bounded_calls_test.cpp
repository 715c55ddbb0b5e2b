// bounded_calls: a call that hangs fails its caller at the deadline and keeps one thread;
// asking again for the same key adds none; with max_stuck keys stuck, other keys are busy.
// The hung calls wait on a promise the test keeps and releases before it ends.
#include "util/bounded_calls.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <future>
#include <thread>

using namespace opentabs;
using namespace std::chrono_literals;

namespace {
// Long enough that a loaded machine never misses it for a call that does not hang.
constexpr std::chrono::milliseconds kAmple{60'000};
// Short: only calls that hang until released run into it.
constexpr std::chrono::milliseconds kShort{1};
}  // namespace

TEST_CASE("bounded_calls: a call that returns in time gives its value") {
  bounded_calls calls(2);
  auto r = calls.call<int>("quick", [] { return 7; }, kAmple);
  REQUIRE(r);
  CHECK(*r == 7);
  CHECK(calls.stuck() == 0);
}

TEST_CASE("bounded_calls: what the call throws reaches the caller") {
  bounded_calls calls(2);
  CHECK_THROWS_AS(calls.call<int>("throws", []() -> int { throw std::runtime_error("no"); }, kAmple), std::runtime_error);
}

TEST_CASE("bounded_calls: a hung key holds one thread, other keys are busy past the bound, and it frees when it returns") {
  bounded_calls calls(1);
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<int> started{0};
  auto hung = [&, released] {
    ++started;
    released.wait();
    return 42;
  };
  auto first = calls.call<int>("hung", hung, kShort);
  REQUIRE_FALSE(first);
  CHECK(first.err().is(errc::timeout));
  CHECK(calls.stuck() == 1);

  // Asked again and again while it hangs: each waits for that same call; no thread is added.
  for (int i = 0; i < 5; ++i) {
    auto again = calls.call<int>("hung", hung, kShort);
    REQUIRE_FALSE(again);
    CHECK(again.err().is(errc::timeout));
  }
  CHECK(started.load() == 1);

  // The bound (1) is taken: another key is refused at once, without a thread.
  std::atomic<bool> other_ran{false};
  auto other = calls.call<int>("other", [&] {
    other_ran = true;
    return 1;
  }, kAmple);
  REQUIRE_FALSE(other);
  CHECK(other.err().is(errc::busy));
  CHECK_FALSE(other_ran.load());

  // Released: the hung call ends and its thread takes its key out (a caller of the key in
  // between might join it or start afresh, so none is made here), and the bound is free.
  release.set_value();
  while (calls.stuck() != 0) std::this_thread::yield();
  CHECK(started.load() == 1);
  auto now_other = calls.call<int>("other", [] { return 1; }, kAmple);
  REQUIRE(now_other);
  CHECK(*now_other == 1);
}
