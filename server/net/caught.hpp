// Branches of an asio `a || b` race must never throw.  The operator ends when the first
// branch *succeeds*; a branch that ends with an exception counts as not done, so the race
// keeps waiting for the other one: forever when that one is a keep-alive loop or an
// unbounded watch (a tools/call whose pipeline threw kept its SSE stream open with
// keep-alives and its id in flight).  caught(op) runs `op` and hands back its value or the
// exception it threw as a value, so the race ends when any branch ends, and the caller maps
// the exception in one place (usually by rethrowing it there).
#pragma once

#include <exception>
#include <optional>
#include <utility>

#include "net/asio.hpp"

namespace opentabs::net {

// The value of an operation, or what it threw.  A struct, not a std::variant: asio's `||`
// flattens variant branches into its own result variant.
template <class T>
struct caught_result {
  std::optional<T> value;
  std::exception_ptr error;
  // The value, or the exception rethrown.
  T take() {
    if (error) std::rethrow_exception(error);
    return std::move(*value);
  }
};

template <class T>
awaitable<caught_result<T>> caught(awaitable<T> op) {
  caught_result<T> out;
  try {
    out.value.emplace(co_await std::move(op));
  } catch (...) {
    out.error = std::current_exception();
  }
  co_return out;
}

// For operations without a value: null when `op` finished normally.
inline awaitable<std::exception_ptr> caught(awaitable<void> op) {
  std::exception_ptr error;
  try {
    co_await std::move(op);
  } catch (...) {
    error = std::current_exception();
  }
  co_return error;
}

}  // namespace opentabs::net
