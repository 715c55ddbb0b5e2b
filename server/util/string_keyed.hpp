// Hash maps keyed by std::string that are searched with a std::string_view (C++20
// heterogeneous lookup), so a lookup on a hot path does not build a temporary string.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace opentabs {

// Hashes std::string, std::string_view and const char* alike.
struct string_hash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};

template <class V>
using string_map = std::unordered_map<std::string, V, string_hash, std::equal_to<>>;

}  // namespace opentabs
