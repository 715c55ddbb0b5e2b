// Descriptor hygiene (see descriptors.hpp).
#include "util/descriptors.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

namespace opentabs {

namespace {

void close_range_or_loop(unsigned first, unsigned last) noexcept {
  if (first > last) return;
  if (::close_range(first, last, 0) == 0) return;
  rlimit lim{};
  unsigned top = ::getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY && lim.rlim_cur < 1'048'576
                     ? static_cast<unsigned>(lim.rlim_cur)
                     : 65'536U;
  for (unsigned fd = first; fd <= last && fd < top; ++fd) ::close(static_cast<int>(fd));
}

}  // namespace

void close_descriptors_from(int lowest, int keep) noexcept {
  const unsigned first = lowest < 0 ? 0U : static_cast<unsigned>(lowest);
  if (keep < lowest) {
    close_range_or_loop(first, ~0U);
    return;
  }
  if (keep > lowest) close_range_or_loop(first, static_cast<unsigned>(keep) - 1);
  close_range_or_loop(static_cast<unsigned>(keep) + 1, ~0U);
}

int dup_cloexec(int fd) noexcept { return ::fcntl(fd, F_DUPFD_CLOEXEC, 3); }

}  // namespace opentabs
