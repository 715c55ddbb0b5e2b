#include "util/original_log.hpp"

#include <cstdio>
#include <string>

#include "util/clock.hpp"
#include "util/control_chars.hpp"
#include "util/log.hpp"

namespace opentabs::log {

void original_line(std::string_view message) {
  if (current_level() > level::info) return;
  std::string line = "[opentabs] " + iso8601_now() + " " + escape_control_chars(message) + "\n";
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fflush(stdout);
}

}  // namespace opentabs::log
