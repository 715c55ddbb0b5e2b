#include "util/process_alive.hpp"

#include <signal.h>

#include <cerrno>
#include <fstream>
#include <string>

namespace opentabs {

bool process_alive(long pid) {
  if (pid <= 0) return false;
  if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) return false;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string s;
  std::getline(stat, s);
  const auto close = s.rfind(')');
  return !(close != std::string::npos && close + 2 < s.size() && s[close + 2] == 'Z');
}

}  // namespace opentabs
