// server.pid (spec §2): {"pid":1234,"port":9515}, written by `start --background` and read
// by `stop`.  A plain integer (older writers) is accepted.  Pure parsing and formatting.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "util/result.hpp"

namespace opentabs::cli {

struct pid_record {
  long pid = 0;
  std::optional<std::uint16_t> port;
};

// Error "invalid_pid_file" when the text is neither form or the pid is not positive.
result<pid_record> parse_pid_file(std::string_view text);
std::string format_pid_file(const pid_record& r);

}  // namespace opentabs::cli
