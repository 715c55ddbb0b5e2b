// result<T>: the value of an operation whose failure is expected (bad input, missing file,
// validation error).  Expected failures travel as values and are mapped to wire errors in
// one place per boundary; exceptions are reserved for bugs and broken invariants.
#pragma once

#include <string>
#include <utility>
#include <variant>

#include "util/errc.hpp"

namespace opentabs {

// An expected failure: its category (util/errc.hpp: what boundaries map to wire errors), a
// machine-readable code (the category's name, or a finer module-specific code such as
// "port_busy" or "npm:E404") and a message for people.  Messages never contain secrets.
struct error {
  std::string code;
  std::string message;
  errc kind = errc::internal;

  bool is(errc e) const noexcept { return kind == e; }
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
  return error{std::string(to_string(kind)), std::move(message), kind};
}

// A module-specific code: its category is the one it names, else `fallback`.
inline error make_error(std::string code, std::string message, errc fallback = errc::internal) {
  errc kind = errc_named(code).value_or(fallback);
  return error{std::move(code), std::move(message), kind};
}

}  // namespace opentabs
