// Windows: the TCP tables with owning pids (GetExtendedTcpTable, IPv4 and IPv6), and the
// image file name of the owner.
#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>
#include <iphlpapi.h>

#include <filesystem>
#include <vector>

#include "platform/port_owner.hpp"
#include "platform/process_identity.hpp"

namespace opentabs::platform {

namespace {

template <class Table>
std::optional<long> owner_in(ULONG family, std::uint16_t port) {
  ULONG size = 0;
  ::GetExtendedTcpTable(nullptr, &size, FALSE, family, TCP_TABLE_OWNER_PID_LISTENER, 0);
  std::vector<unsigned char> buf(size);
  if (::GetExtendedTcpTable(buf.data(), &size, FALSE, family, TCP_TABLE_OWNER_PID_LISTENER, 0) != NO_ERROR)
    return std::nullopt;
  const auto* table = reinterpret_cast<const Table*>(buf.data());
  for (DWORD i = 0; i < table->dwNumEntries; ++i)
    if (ntohs(static_cast<u_short>(table->table[i].dwLocalPort)) == port && table->table[i].dwOwningPid != 0)
      return static_cast<long>(table->table[i].dwOwningPid);  // 0 would be the idle process: unknown
  return std::nullopt;
}

}  // namespace

std::optional<long> listening_process(std::uint16_t port) {
  if (auto pid = owner_in<MIB_TCPTABLE_OWNER_PID>(AF_INET, port)) return pid;
  return owner_in<MIB_TCP6TABLE_OWNER_PID>(AF_INET6, port);
}

std::optional<std::string> process_name(long pid) {
  auto args = process_command_line(pid);
  if (!args || args->empty()) return std::nullopt;
  return std::filesystem::path((*args)[0]).filename().string();
}

}  // namespace opentabs::platform
