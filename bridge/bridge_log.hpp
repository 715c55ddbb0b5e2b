// The bridge's diagnostics: "[stdio-bridge] <ISO time> <message>" lines appended to
// <configDir>/logs/stdio-bridge.log and copied to stderr.  Never to stdout, which carries
// protocol bytes only.  Messages never contain the secret.
#pragma once

#include <filesystem>
#include <string_view>

namespace opentabs::bridge {

class bridge_log {
 public:
  explicit bridge_log(std::filesystem::path file, bool to_stderr = true);
  void write(std::string_view message) const;
  const std::filesystem::path& file() const { return file_; }

 private:
  std::filesystem::path file_;
  bool to_stderr_;
};

}  // namespace opentabs::bridge
