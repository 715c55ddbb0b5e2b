// Linux: the listening socket's inode from /proc/net/tcp{,6}, then the process whose
// /proc/<pid>/fd holds that socket.
#include <dirent.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string_view>
#include <vector>

#include "platform/port_owner.hpp"

namespace opentabs::platform {

namespace {

// Socket inodes of listeners on `port` (state 0A = LISTEN).
std::vector<std::string> listening_inodes(std::uint16_t port) {
  std::vector<std::string> out;
  char want[8];
  std::snprintf(want, sizeof want, ":%04X", port);
  for (const char* table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
    std::ifstream in(table);
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
      std::istringstream fields(line);
      std::string slot, local, remote, state, queues, timer, retransmits, uid, timeout, inode;
      fields >> slot >> local >> remote >> state >> queues >> timer >> retransmits >> uid >> timeout >> inode;
      if (state == "0A" && local.size() > 5 && local.ends_with(want)) out.push_back(inode);
    }
  }
  return out;
}

bool holds_socket(const std::string& pid, const std::vector<std::string>& inodes) {
  std::string fd_dir = "/proc/" + pid + "/fd";
  DIR* fds = ::opendir(fd_dir.c_str());
  if (!fds) return false;
  bool found = false;
  while (dirent* fd = ::readdir(fds)) {
    char target[64];
    ssize_t n = ::readlink((fd_dir + "/" + fd->d_name).c_str(), target, sizeof target - 1);
    if (n <= 0) continue;
    target[n] = '\0';
    for (const auto& inode : inodes)
      if (std::string_view(target) == "socket:[" + inode + "]") found = true;
    if (found) break;
  }
  ::closedir(fds);
  return found;
}

}  // namespace

std::optional<long> listening_process(std::uint16_t port) {
  auto inodes = listening_inodes(port);
  if (inodes.empty()) return std::nullopt;
  DIR* proc = ::opendir("/proc");
  if (!proc) return std::nullopt;
  std::optional<long> found;
  while (dirent* entry = ::readdir(proc)) {
    std::string pid = entry->d_name;
    if (pid.empty() || pid.size() > 10 || pid.find_first_not_of("0123456789") != std::string::npos) continue;
    if (holds_socket(pid, inodes)) {
      found = std::stol(pid);
      break;
    }
  }
  ::closedir(proc);
  return found;
}

std::optional<std::string> process_name(long pid) {
  std::ifstream comm("/proc/" + std::to_string(pid) + "/comm");
  std::string name;
  if (!std::getline(comm, name) || name.empty()) return std::nullopt;
  return name;
}

}  // namespace opentabs::platform
