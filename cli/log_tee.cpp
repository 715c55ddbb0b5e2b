// Copying the foreground server's output to server.log (see log_tee.hpp).
#include "cli/log_tee.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace opentabs::cli {

namespace {

void write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;  // a closed terminal must not stop the server
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}

}  // namespace

result<std::unique_ptr<log_tee>> log_tee::start(const std::filesystem::path& log_file, std::uint64_t max_bytes,
                                                bool copy_to_terminal) {
  std::unique_ptr<log_tee> t(new log_tee());
  t->copy_to_terminal_ = copy_to_terminal;
  t->file_ = std::make_unique<rotating_file>(log_file, max_bytes);
  if (auto opened = t->file_->open(); !opened) return opened.err();
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) return make_error(errc::io, "pipe failed");
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    return make_error(errc::io, "pipe failed");
  }
  std::fflush(stdout);
  std::fflush(stderr);
  t->saved_out_ = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
  t->saved_err_ = ::fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
  ::dup2(out_pipe[1], STDOUT_FILENO);
  ::dup2(err_pipe[1], STDERR_FILENO);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  t->out_read_ = out_pipe[0];
  t->err_read_ = err_pipe[0];
  t->thread_ = std::thread([p = t.get()] { p->pump(); });
  return t;
}

void log_tee::pump() {
  pollfd fds[2] = {{out_read_, POLLIN, 0}, {err_read_, POLLIN, 0}};
  int saved[2] = {saved_out_, saved_err_};
  int open_fds = 2;
  char buf[16384];
  while (open_fds > 0) {
    int r = ::poll(fds, 2, -1);
    if (r < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n <= 0) {
        fds[i].fd = -1;
        --open_fds;
        continue;
      }
      if (copy_to_terminal_) {
        std::lock_guard lock(terminal_mutex_);
        write_all(saved[i], buf, static_cast<std::size_t>(n));
      }
      file_->write(std::string_view(buf, static_cast<std::size_t>(n)));
    }
  }
}

void log_tee::write_terminal_only(std::string_view text) {
  std::fflush(stdout);
  std::lock_guard lock(terminal_mutex_);
  write_all(saved_out_, text.data(), text.size());
}

log_tee::~log_tee() {
  std::fflush(stdout);
  std::fflush(stderr);
  // Putting the original descriptors back closes the pipes' last write ends: the pump
  // thread drains what is left and ends.
  if (saved_out_ >= 0) ::dup2(saved_out_, STDOUT_FILENO);
  if (saved_err_ >= 0) ::dup2(saved_err_, STDERR_FILENO);
  if (thread_.joinable()) thread_.join();
  for (int fd : {saved_out_, saved_err_, out_read_, err_read_})
    if (fd >= 0) ::close(fd);
}

}  // namespace opentabs::cli
