// Branches of an asio `a || b` race must never throw.  The operator ends when the first
// branch *succeeds*; a branch that ends with an exception counts as not done, so the race
// keeps waiting for the other one: forever when that one is a keep-alive loop or an
// unbounded watch (a tools/call whose pipeline threw kept its SSE stream open with
// keep-alives and its id in flight).  caught(op) runs `op` and hands back its value or the
// exception it threw as a value, so the race ends when any branch ends, and the caller maps
// the exception in one place (usually by rethrowing it there).
#pragma once

#include <exception>
#include <utility>
#include <variant>

#include "net/asio.hpp"

namespace opentabs::net {

// index 0: the value; index 1: what the operation threw.
template <class T>
using caught_result = std::variant<T, std::exception_ptr>;

template <class T>
awaitable<caught_result<T>> caught(awaitable<T> op) {
  std::exception_ptr failure;
  try {
    co_return caught_result<T>(std::in_place_index<0>, co_await std::move(op));
  } catch (...) {
    failure = std::current_exception();
  }
  co_return caught_result<T>(std::in_place_index<1>, std::move(failure));
}

// For operations without a value: null when `op` finished normally.
inline awaitable<std::exception_ptr> caught(awaitable<void> op) {
  try {
    co_await std::move(op);
  } catch (...) {
    co_return std::current_exception();
  }
  co_return nullptr;
}

// The value of a caught operation, or its exception rethrown.
template <class T>
T value_or_rethrow(caught_result<T>&& r) {
  if (r.index() == 1) std::rethrow_exception(std::get<1>(r));
  return std::move(std::get<0>(r));
}

}  // namespace opentabs::net
