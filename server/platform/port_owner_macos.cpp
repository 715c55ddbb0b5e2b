// macOS: every visible process's socket descriptors (libproc), looking for a TCP socket in
// LISTEN state on the port.
#include <arpa/inet.h>
#include <libproc.h>
#include <netinet/tcp_fsm.h>
#include <sys/proc_info.h>

#include <vector>

#include "platform/port_owner.hpp"

namespace opentabs::platform {

namespace {

bool listens_on(int pid, std::uint16_t port) {
  int bytes = ::proc_pidinfo(pid, PROC_PIDLISTFDS, 0, nullptr, 0);
  if (bytes <= 0) return false;
  std::vector<proc_fdinfo> fds(static_cast<std::size_t>(bytes) / sizeof(proc_fdinfo));
  bytes = ::proc_pidinfo(pid, PROC_PIDLISTFDS, 0, fds.data(), static_cast<int>(fds.size() * sizeof(proc_fdinfo)));
  if (bytes <= 0) return false;
  fds.resize(static_cast<std::size_t>(bytes) / sizeof(proc_fdinfo));
  for (const auto& fd : fds) {
    if (fd.proc_fdtype != PROX_FDTYPE_SOCKET) continue;
    socket_fdinfo info{};
    if (::proc_pidfdinfo(pid, fd.proc_fd, PROC_PIDFDSOCKETINFO, &info, sizeof info) != sizeof info) continue;
    if (info.psi.soi_kind != SOCKINFO_TCP) continue;
    const auto& tcp = info.psi.soi_proto.pri_tcp;
    if (tcp.tcpsi_state == TSI_S_LISTEN && ntohs(static_cast<std::uint16_t>(tcp.tcpsi_ini.insi_lport)) == port) return true;
  }
  return false;
}

}  // namespace

std::optional<long> listening_process(std::uint16_t port) {
  int bytes = ::proc_listpids(PROC_ALL_PIDS, 0, nullptr, 0);
  if (bytes <= 0) return std::nullopt;
  std::vector<int> pids(static_cast<std::size_t>(bytes) / sizeof(int) + 16);
  bytes = ::proc_listpids(PROC_ALL_PIDS, 0, pids.data(), static_cast<int>(pids.size() * sizeof(int)));
  if (bytes <= 0) return std::nullopt;
  pids.resize(static_cast<std::size_t>(bytes) / sizeof(int));
  for (int pid : pids)
    if (pid > 0 && listens_on(pid, port)) return pid;
  return std::nullopt;
}

std::optional<std::string> process_name(long pid) {
  char name[2 * MAXCOMLEN + 1] = {};
  if (::proc_name(static_cast<int>(pid), name, sizeof name) <= 0 || name[0] == '\0') return std::nullopt;
  return std::string(name);
}

}  // namespace opentabs::platform
