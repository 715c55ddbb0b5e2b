// The bridge's log file (see bridge_log.hpp).
#include "bridge/bridge_log.hpp"

#include <cstdio>
#include <string>

#include "util/clock.hpp"
#include "util/files.hpp"

namespace opentabs::bridge {

bridge_log::bridge_log(std::filesystem::path file, bool to_stderr) : file_(std::move(file)), to_stderr_(to_stderr) {
  (void)ensure_dir(file_.parent_path());
}

void bridge_log::write(std::string_view message) const {
  std::string line = "[stdio-bridge] " + iso8601_now() + " " + std::string(message) + "\n";
  (void)append_file(file_, line);
  if (to_stderr_) std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace opentabs::bridge
