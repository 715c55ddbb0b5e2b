// The server's output, copied to server.log: stdout and stderr of this process are
// redirected into pipes, and one thread writes every byte to server.log (rotated at
// `max_bytes` to server.log.1, like audit.log, so a flood cannot fill the disk) and, for a
// foreground server, also to the terminal (the original descriptors).  `opentabs logs` then
// works no matter how the server was started.  Restores the descriptors on destruction.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>

#include "platform/output_capture.hpp"
#include "util/result.hpp"
#include "util/rotating_file.hpp"

namespace opentabs::cli {

class log_tee {
 public:
  // `copy_to_terminal` false: a background server, whose original stdout/stderr already
  // are server.log, writes through the rotating file only.
  static result<std::unique_ptr<log_tee>> start(const std::filesystem::path& log_file, std::uint64_t max_bytes,
                                                bool copy_to_terminal = true);
  ~log_tee();
  // Writes to the terminal only, never to server.log: for text that carries the secret
  // (the MCP client snippets).
  void write_terminal_only(std::string_view text);
  log_tee(const log_tee&) = delete;
  log_tee& operator=(const log_tee&) = delete;

 private:
  log_tee() = default;
  void pump();

  std::mutex terminal_mutex_;  // the pump thread and write_terminal_only share the terminal
  std::unique_ptr<rotating_file> file_;
  bool copy_to_terminal_ = true;
  platform::output_capture capture_;
  std::thread thread_;
};

}  // namespace opentabs::cli
