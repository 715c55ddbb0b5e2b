// result<T>: the value of an operation whose failure is expected (bad input, missing file,
// validation error).  Expected failures travel as values and are mapped to wire errors in
// one place per boundary; exceptions are reserved for bugs and broken invariants.
#pragma once

#include <string>
#include <utility>
#include <variant>

#include "util/errc.hpp"
#include "util/failure_reason.hpp"

namespace opentabs {

// An expected failure: its category (util/errc.hpp: what boundaries map to wire errors), a
// finer reason when there is one (a module's enum, util/failure_reason.hpp) and a message
// for people.  Messages never contain secrets.  Callers branch on `kind` or `reason`; the
// code text the CLI shows is derived from them (code()), never stored beside them.
struct error {
  std::string message;
  errc kind = errc::internal;
  std::error_code reason = {};  // empty, or made by make_error(reason, …)
  // npm's own error code ("E404", "ECONNREFUSED") when a run of npm failed with one
  // (app::npm::failure_error); app::extension_error_json shows it as data.npmErrorCode.
  std::string npm_code = {};

  bool is(errc e) const noexcept { return kind == e; }
  template <failure_reason E>
  bool is(E r) const noexcept {
    return reason == r;
  }
  // The machine-readable code: the finer reason's name ("port_busy"), else the category's
  // ("not_found").
  std::string code() const { return reason != std::error_code{} ? reason.message() : std::string(to_string(kind)); }
};

template <class T>
class result {
 public:
  result(T value) : v_(std::in_place_index<0>, std::move(value)) {}
  result(error e) : v_(std::in_place_index<1>, std::move(e)) {}

  bool ok() const noexcept { return v_.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }

  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const error& err() const& { return std::get<1>(v_); }

 private:
  std::variant<T, error> v_;
};

// result<void> spelled as a value type.
struct ok_t {};
using status = result<ok_t>;
inline status ok() { return ok_t{}; }

inline error make_error(errc kind, std::string message) {
  return error{std::move(message), kind};
}

// The same failure with `context` put before its message ("reading x: " + message).
inline error with_context(std::string_view context, error e) {
  e.message.insert(0, context);
  return e;
}

// A finer reason: its code text is the reason's name, its category the one kind_of gives.
template <failure_reason E>
error make_error(E reason, std::string message) {
  return error{std::move(message), kind_of(reason), make_error_code(reason)};
}

}  // namespace opentabs
