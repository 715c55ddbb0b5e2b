// Linux: /proc/<pid>/stat for the state, /proc/<pid>/cmdline for the arguments.
#include <signal.h>

#include <cerrno>
#include <fstream>

#include "platform/durable_file.hpp"
#include "platform/process_identity.hpp"

namespace opentabs::platform {

bool process_alive(long pid) {
  if (pid <= 0) return false;
  if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) return false;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string s;
  std::getline(stat, s);
  const auto close = s.rfind(')');
  return !(close != std::string::npos && close + 2 < s.size() && s[close + 2] == 'Z');
}

std::optional<std::vector<std::string>> process_command_line(long pid) {
  if (pid <= 0) return std::nullopt;
  std::string text;
  if (read_file("/proc/" + std::to_string(pid) + "/cmdline", 64 * 1024, text)) return std::nullopt;
  return split_nul_separated(text);
}

}  // namespace opentabs::platform
