// The account's home on macOS: getpwuid_r, which asks Directory Services.
#include <pwd.h>
#include <unistd.h>

#include <vector>

#include "platform/folders.hpp"

namespace opentabs::platform {

std::optional<std::filesystem::path> account_home_directory() {
  long size = ::sysconf(_SC_GETPW_R_SIZE_MAX);
  std::vector<char> buf(size > 0 ? static_cast<std::size_t>(size) : 16384);
  passwd pw{};
  passwd* found = nullptr;
  if (::getpwuid_r(::getuid(), &pw, buf.data(), buf.size(), &found) == 0 && found && found->pw_dir &&
      found->pw_dir[0] != '\0')
    return std::filesystem::path(found->pw_dir);
  return std::nullopt;
}

}  // namespace opentabs::platform
