// Finer failure reasons: a module's own enum of the few failures its callers branch on
// ("the server is not running", "the port is busy", "npm says the package does not exist"),
// carried in `error::reason` as a std::error_code so one error type holds any module's enum
// and the compiler, not text comparison, decides `e.is(client_failure::connect_failed)`.
//
// A module declares, next to its enum class E:
//   constexpr std::string_view to_string(E);  // the stable code text (what wires and the CLI show)
//   constexpr errc kind_of(E);                // the category that is true of it (util/errc.hpp)
//   inline std::error_code make_error_code(E e) { return reason_code(e); }
// and specialises std::is_error_code_enum<E> so `make_error(E, message)` accepts it.
#pragma once

#include <concepts>
#include <string>
#include <string_view>
#include <system_error>

#include "util/errc.hpp"

namespace opentabs {

// One category object per reason enum; its address is what tells two enums apart.
template <class E>
class reason_category final : public std::error_category {
 public:
  const char* name() const noexcept override { return "opentabs"; }
  std::string message(int value) const override { return std::string(to_string(static_cast<E>(value))); }
};

template <class E>
std::error_code reason_code(E e) {
  static const reason_category<E> category;
  return {static_cast<int>(e), category};
}

template <class E>
concept failure_reason = std::is_error_code_enum_v<E> && requires(E e) {
  { kind_of(e) } -> std::same_as<errc>;
  { to_string(e) } -> std::convertible_to<std::string_view>;
};

}  // namespace opentabs
