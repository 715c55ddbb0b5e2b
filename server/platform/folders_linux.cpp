// The account's home on Linux: the entry in /etc/passwd (folders.hpp says why not getpwuid).
#include <unistd.h>

#include <fstream>
#include <string>

#include "platform/folders.hpp"

namespace opentabs::platform {

namespace {
// A passwd file larger than this is not read (a real one of 100,000 accounts is ~8 MB).
constexpr std::streamsize kMaxPasswdBytes = 16 * 1024 * 1024;
}  // namespace

std::optional<std::filesystem::path> account_home_directory() {
  std::ifstream in("/etc/passwd", std::ios::binary);
  if (!in) return std::nullopt;
  std::string text(static_cast<std::size_t>(kMaxPasswdBytes), '\0');
  in.read(text.data(), kMaxPasswdBytes);
  text.resize(static_cast<std::size_t>(in.gcount()));
  return home_in_passwd(text, ::getuid());
}

}  // namespace opentabs::platform
