// Copying the foreground server's output to server.log (see log_tee.hpp).
#include "cli/log_tee.hpp"

#include <chrono>
#include <cstdio>

namespace opentabs::cli {

result<std::unique_ptr<log_tee>> log_tee::start(const std::filesystem::path& log_file, std::uint64_t max_bytes,
                                                bool copy_to_terminal) {
  std::unique_ptr<log_tee> t(new log_tee());
  t->copy_to_terminal_ = copy_to_terminal;
  t->file_ = std::make_unique<rotating_file>(log_file, max_bytes);
  if (auto opened = t->file_->open(); !opened) return opened.err();
  if (auto ec = t->capture_.start()) return make_error(errc::io, "cannot capture the output: " + ec.message());
  t->thread_ = std::thread([p = t.get()] { p->pump(); });
  return t;
}

void log_tee::pump() {
  platform::native_handle pipes[2] = {capture_.pipe(0), capture_.pipe(1)};
  bool open[2] = {true, true};
  char buf[16384];
  while (open[0] || open[1]) {
    const platform::native_handle waiting[2] = {open[0] ? pipes[0] : platform::kNoHandle,
                                                open[1] ? pipes[1] : platform::kNoHandle};
    unsigned ready = platform::wait_readable(waiting, std::chrono::hours(1));
    for (int i = 0; i < 2; ++i) {
      if (!(ready & (1U << i))) continue;
      auto n = platform::read_pipe(pipes[i], buf, sizeof buf);
      if (n <= 0) {
        open[i] = false;
        continue;
      }
      if (copy_to_terminal_) {
        std::lock_guard lock(terminal_mutex_);
        capture_.write_original(i, std::string_view(buf, static_cast<std::size_t>(n)));
      }
      file_->write(std::string_view(buf, static_cast<std::size_t>(n)));
    }
  }
}

void log_tee::write_terminal_only(std::string_view text) {
  std::fflush(stdout);
  std::lock_guard lock(terminal_mutex_);
  capture_.write_original(0, text);
}

log_tee::~log_tee() {
  // Putting the original streams back closes the pipes' last write ends: the pump thread
  // drains what is left and ends.
  capture_.restore();
  if (thread_.joinable()) thread_.join();
}

}  // namespace opentabs::cli
