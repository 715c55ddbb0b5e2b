// Wall-clock helpers for wire formats (ISO-8601 timestamps, epoch milliseconds).
// Durations and deadlines use std::chrono::steady_clock directly, never these.
// Formatting and parsing are plain digit arithmetic (proleptic Gregorian, UTC): every
// audited call formats one timestamp, and snprintf/sscanf/timegm cost more than the rest
// of the audit entry together.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace opentabs {

std::int64_t now_epoch_ms();
// "2026-11-22T09:31:32.859Z"; times before 1970 count back ("1969-12-31T23:59:59.999Z" for -1).
std::string iso8601_from_epoch_ms(std::int64_t epoch_ms);
std::string iso8601_utc(std::chrono::system_clock::time_point t);
std::string iso8601_now();
// Parses "YYYY-MM-DDTHH:MM:SS", optionally followed by ".mmm" (1–3 digits) and "Z"; -1
// when malformed.
std::int64_t parse_iso8601_ms(std::string_view s);

}  // namespace opentabs
