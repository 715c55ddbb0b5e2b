#include <sys/stat.h>

#include "platform/posix_io.hpp"

namespace opentabs::platform::posix {

void copy_times(const void* stat_buf, file_facts& out) noexcept {
  const auto& st = *static_cast<const struct stat*>(stat_buf);
  out.modified_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
  out.changed_ns = static_cast<std::int64_t>(st.st_ctim.tv_sec) * 1'000'000'000 + st.st_ctim.tv_nsec;
}

}  // namespace opentabs::platform::posix
