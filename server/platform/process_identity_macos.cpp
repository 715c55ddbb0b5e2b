// macOS: proc_pidinfo for the state, sysctl(KERN_PROCARGS2) for the arguments (an argc
// followed by the executable path and the NUL-separated argv).
#include <libproc.h>
#include <signal.h>
#include <sys/sysctl.h>

#include <cerrno>
#include <cstring>

#include "platform/process_identity.hpp"

namespace opentabs::platform {

bool process_alive(long pid) {
  if (pid <= 0) return false;
  if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) return false;
  proc_bsdinfo info{};
  int n = ::proc_pidinfo(static_cast<int>(pid), PROC_PIDTBSDINFO, 0, &info, sizeof info);
  return !(n == static_cast<int>(sizeof info) && info.pbi_status == SZOMB);
}

std::optional<std::vector<std::string>> process_command_line(long pid) {
  if (pid <= 0) return std::nullopt;
  int mib[3] = {CTL_KERN, KERN_PROCARGS2, static_cast<int>(pid)};
  std::string buf(256 * 1024, '\0');
  size_t size = buf.size();
  if (::sysctl(mib, 3, buf.data(), &size, nullptr, 0) != 0 || size < sizeof(int)) return std::nullopt;
  int argc = 0;
  std::memcpy(&argc, buf.data(), sizeof argc);
  auto words = split_nul_separated(std::string_view(buf.data() + sizeof argc, size - sizeof argc));
  // words: the executable path, NUL padding (empty words), then argv[0..argc).
  std::vector<std::string> args;
  std::size_t i = 1;
  while (i < words.size() && words[i].empty()) ++i;
  for (; i < words.size() && args.size() < static_cast<std::size_t>(argc > 0 ? argc : 0); ++i) args.push_back(words[i]);
  return args;
}

}  // namespace opentabs::platform
