// Wall-clock helpers for wire formats (ISO-8601 timestamps, epoch milliseconds).
// Durations and deadlines use std::chrono::steady_clock directly, never these.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace opentabs {

std::int64_t now_epoch_ms();
// "2026-11-22T09:31:32.859Z"
std::string iso8601_utc(std::chrono::system_clock::time_point t);
std::string iso8601_now();
// Parses the form above (milliseconds optional); -1 when malformed.
std::int64_t parse_iso8601_ms(const std::string& s);

}  // namespace opentabs
