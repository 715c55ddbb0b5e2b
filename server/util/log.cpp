#include "util/log.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "util/clock.hpp"
#include "util/control_chars.hpp"

namespace opentabs::log {
namespace {
level g_level = level::info;
}

void set_level(level l) { g_level = l; }
level current_level() { return g_level; }

void init_from_env() {
  const char* v = std::getenv("OPENTABS_LOG_LEVEL");
  if (!v) return;
  std::string s(v);
  if (s == "debug") g_level = level::debug;
  else if (s == "info") g_level = level::info;
  else if (s == "warn" || s == "warning") g_level = level::warn;
  else if (s == "error") g_level = level::error;
  else if (s == "silent") g_level = level::silent;
}

void write(level l, std::string_view message) {
  if (l < g_level) return;
  std::string line = "[opentabs] " + iso8601_now() + " ";
  if (l == level::warn) line += "WARN ";
  if (l == level::error) line += "ERROR ";
  line += escape_control_chars(message);
  line.push_back('\n');
  std::fwrite(line.data(), 1, line.size(), stderr);
}

void write_prefixed(std::string_view prefix, std::string_view message) {
  if (g_level == level::silent) return;
  std::string line = escape_control_chars(prefix);
  line.push_back(' ');
  line += escape_control_chars(message);
  line.push_back('\n');
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace opentabs::log
