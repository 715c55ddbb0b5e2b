#include <signal.h>
#include <sys/resource.h>

#include <algorithm>

#include "platform/process_setup.hpp"

namespace opentabs::platform {

bool raise_open_file_limit(std::uint64_t enough) noexcept {
  struct rlimit lim {};
  const auto want = static_cast<rlim_t>(enough);
  if (::getrlimit(RLIMIT_NOFILE, &lim) != 0) return false;
  if (lim.rlim_cur >= std::min(lim.rlim_max, want)) return true;
  lim.rlim_cur = std::min(lim.rlim_max, want);
  return ::setrlimit(RLIMIT_NOFILE, &lim) == 0;
}

void ignore_broken_pipes() noexcept { ::signal(SIGPIPE, SIG_IGN); }

}  // namespace opentabs::platform
