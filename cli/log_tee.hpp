// The foreground server's output, copied to server.log: stdout and stderr of this process
// are redirected into pipes, and one thread writes every byte both to the terminal (the
// original descriptors) and to server.log (append).  `opentabs logs` then works no matter
// how the server was started.  Restores the descriptors on destruction.
#pragma once

#include <filesystem>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>

#include "util/result.hpp"

namespace opentabs::cli {

class log_tee {
 public:
  static result<std::unique_ptr<log_tee>> start(const std::filesystem::path& log_file);
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
  int log_fd_ = -1;
  int saved_out_ = -1;
  int saved_err_ = -1;
  int out_read_ = -1;
  int err_read_ = -1;
  std::thread thread_;
};

}  // namespace opentabs::cli
