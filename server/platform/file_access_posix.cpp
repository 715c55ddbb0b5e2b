#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "platform/file_access.hpp"
#include "platform/posix_io.hpp"

namespace opentabs::platform {

std::error_code set_mode(const std::filesystem::path& path, unsigned mode) {
  if (::chmod(path.c_str(), static_cast<mode_t>(mode)) != 0) return posix::last_error();
  return {};
}

std::error_code create_directories_with_mode(const std::filesystem::path& path, unsigned mode) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) return ec;
  return set_mode(path, mode);
}

std::error_code make_directory(const std::filesystem::path& path, unsigned mode, bool& created) {
  created = ::mkdir(path.c_str(), static_cast<mode_t>(mode)) == 0;
  if (created || errno == EEXIST) return {};
  return posix::last_error();
}

bool is_executable(const std::filesystem::path& path) { return ::access(path.c_str(), X_OK) == 0; }

unsigned file_mode(const std::filesystem::path& path, std::error_code& ec) {
  ec.clear();
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    ec = posix::last_error();
    return 0;
  }
  return static_cast<unsigned>(st.st_mode & 07777);
}

}  // namespace opentabs::platform
