#include "util/env.hpp"

#include <cstdlib>
#include <string>

#include "util/log.hpp"
#include "util/strings.hpp"

namespace opentabs {

result<std::int64_t> parse_bounded_integer(std::string_view text, std::int64_t min, std::int64_t max) {
  auto range = [&] { return "an integer from " + std::to_string(min) + " to " + std::to_string(max); };
  auto bad = [&](std::string why) {
    return make_error(errc::invalid_params, quote_for_error(text, 40) + " is " + std::move(why) + ", expected " + range());
  };
  if (text.empty()) return bad("empty");
  // Digits only; the value grows digit by digit and stops as soon as it passes `max`, so an
  // over-long number cannot overflow.
  std::int64_t n = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return bad("not a whole decimal number");
    int digit = c - '0';
    if (digit > max || n > (max - digit) / 10) return bad("too large");
    n = n * 10 + digit;
  }
  if (n < min) return bad("too small");
  return n;
}

result<std::optional<std::int64_t>> read_env_integer(const char* name, std::int64_t min, std::int64_t max) {
  const char* v = std::getenv(name);
  if (!v || !*v) return std::optional<std::int64_t>{};
  auto n = parse_bounded_integer(v, min, max);
  if (!n) return with_context(std::string(name) + "=", n.err());
  return std::optional<std::int64_t>{*n};
}

std::optional<std::int64_t> env_integer(const char* name, std::int64_t min, std::int64_t max) {
  auto n = read_env_integer(name, min, max);
  if (!n) {
    log::warn("ignoring " + n.err().message);
    return std::nullopt;
  }
  return *n;
}

std::optional<std::chrono::milliseconds> env_milliseconds(const char* name, std::int64_t min_ms, std::int64_t max_ms) {
  if (auto n = env_integer(name, min_ms, max_ms)) return std::chrono::milliseconds(*n);
  return std::nullopt;
}

}  // namespace opentabs
