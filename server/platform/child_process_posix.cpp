// Child processes on Linux and macOS: posix_spawn(p) with file actions (it reports exec
// failures as its return value), waitpid for the status, kill(-pgid) for the group.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include "platform/child_process.hpp"
#include "platform/posix_io.hpp"

extern char** environ;

namespace opentabs::platform {

namespace {

// Our environment with `extra` set on top (same-named entries replaced).
std::vector<std::string> environment_with(const std::vector<std::pair<std::string, std::string>>& extra) {
  std::vector<std::string> out;
  for (char** e = environ; e && *e; ++e) {
    std::string entry(*e);
    bool replaced = false;
    for (const auto& kv : extra)
      if (entry.compare(0, kv.first.size() + 1, kv.first + "=") == 0) replaced = true;
    if (!replaced) out.push_back(std::move(entry));
  }
  for (const auto& [k, v] : extra) out.push_back(k + "=" + v);
  return out;
}

std::vector<char*> pointers_to(std::vector<std::string>& words) {
  std::vector<char*> v;
  for (auto& w : words) v.push_back(w.data());
  v.push_back(nullptr);
  return v;
}

// Default dispositions for the signals a server ignores or handles (SIGPIPE above all), and
// an empty mask: the child starts as if from a shell.
void reset_signals(posix_spawnattr_t& attr) {
  sigset_t defaults;
  sigemptyset(&defaults);
  for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGCHLD, SIGQUIT}) sigaddset(&defaults, sig);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  sigset_t mask;
  sigemptyset(&mask);
  posix_spawnattr_setsigmask(&attr, &mask);
}

struct spawn_setup {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  spawn_setup() {
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
  }
  ~spawn_setup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
  }
  spawn_setup(const spawn_setup&) = delete;
  spawn_setup& operator=(const spawn_setup&) = delete;
};

std::error_code make_pipe(posix::unique_fd& read_end, posix::unique_fd& write_end) {
  int fds[2];
  if (::pipe(fds) != 0) return posix::last_error();
  read_end.reset(fds[0]);
  write_end.reset(fds[1]);
  for (int fd : fds)
    if (::fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) return posix::last_error();
  return {};
}

exit_status status_from(int raw) {
  exit_status st;
  if (WIFEXITED(raw)) st.code = WEXITSTATUS(raw);
  else if (WIFSIGNALED(raw)) st.signal = WTERMSIG(raw);
  return st;
}

}  // namespace

void close_handle(native_handle h) noexcept {
  if (h >= 0) ::close(static_cast<int>(h));
}

std::error_code spawn(const child_spec& spec, child& out) {
  if (spec.argv.empty() || spec.argv[0].empty()) return std::make_error_code(std::errc::invalid_argument);
  spawn_setup s;
  posix::unique_fd out_read, out_write, err_read, err_write;
  posix_spawn_file_actions_addopen(&s.actions, 0, "/dev/null", O_RDONLY, 0);
  if (spec.output_file.empty()) {
    if (auto ec = make_pipe(out_read, out_write)) return ec;
    if (auto ec = make_pipe(err_read, err_write)) return ec;
    posix_spawn_file_actions_adddup2(&s.actions, out_write.get(), 1);
    posix_spawn_file_actions_adddup2(&s.actions, err_write.get(), 2);
  } else {
    posix_spawn_file_actions_addopen(&s.actions, 1, spec.output_file.c_str(), O_WRONLY | O_APPEND | O_CREAT, 0600);
    posix_spawn_file_actions_adddup2(&s.actions, 1, 2);
  }
  posix::close_inherited_descriptors(&s.actions);
  short flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | posix::extra_spawn_flags();
  if (spec.group == child_group::own_session) {
    flags |= POSIX_SPAWN_SETSID;
  } else {
    flags |= POSIX_SPAWN_SETPGROUP;
    posix_spawnattr_setpgroup(&s.attr, 0);
  }
  posix_spawnattr_setflags(&s.attr, flags);
  reset_signals(s.attr);

  auto words = spec.argv;
  auto argv = pointers_to(words);
  auto env_words = environment_with(spec.extra_env);
  auto envp = pointers_to(env_words);
  pid_t pid = -1;
  int rc = spec.program.empty() ? ::posix_spawnp(&pid, words[0].c_str(), &s.actions, &s.attr, argv.data(), envp.data())
                                : ::posix_spawn(&pid, spec.program.c_str(), &s.actions, &s.attr, argv.data(), envp.data());
  if (rc != 0) return std::error_code(rc, std::system_category());
  out = child();
  out.pid_ = pid;
  out.out_ = out_read.release();
  out.err_ = err_read.release();
  return {};
}

native_handle child::take_exit_handle() noexcept {
  if (reaped_ || pid_ <= 0) return kNoHandle;
  int fd = posix::open_exit_descriptor(pid_);
  return fd >= 0 ? fd : kNoHandle;
}

std::optional<exit_status> child::try_wait() {
  if (reaped_) return status_.value_or(exit_status{});
  int raw = 0;
  pid_t r;
  do {
    r = ::waitpid(static_cast<pid_t>(pid_), &raw, WNOHANG);
  } while (r < 0 && errno == EINTR);
  if (r == 0) return std::nullopt;
  reaped_ = true;
  if (r == static_cast<pid_t>(pid_)) status_ = status_from(raw);
  return status_.value_or(exit_status{});  // r < 0: not ours, or already collected
}

exit_status child::wait() {
  if (reaped_) return status_.value_or(exit_status{});
  int raw = 0;
  pid_t r;
  do {
    r = ::waitpid(static_cast<pid_t>(pid_), &raw, 0);
  } while (r < 0 && errno == EINTR);
  reaped_ = true;
  if (r == static_cast<pid_t>(pid_)) status_ = status_from(raw);
  return status_.value_or(exit_status{});
}

std::error_code request_termination(long pid) {
  if (pid <= 0) return std::make_error_code(std::errc::invalid_argument);
  if (::kill(static_cast<pid_t>(pid), SIGTERM) != 0) return posix::last_error();
  return {};
}

void child::kill_group(bool force) noexcept {
  if (reaped_ || pid_ <= 0) return;
  ::kill(-static_cast<pid_t>(pid_), force ? SIGKILL : SIGTERM);
}

std::ptrdiff_t read_pipe(native_handle h, char* buf, std::size_t size) noexcept {
  for (;;) {
    ssize_t n = ::read(static_cast<int>(h), buf, size);
    if (n >= 0 || errno != EINTR) return n;
  }
}

unsigned wait_readable(std::span<const native_handle> pipes, std::chrono::milliseconds timeout) {
  std::vector<pollfd> fds;
  for (auto h : pipes) fds.push_back({static_cast<int>(h), POLLIN, 0});  // a negative fd is skipped by poll
  int r = ::poll(fds.data(), static_cast<nfds_t>(fds.size()), static_cast<int>(timeout.count()));
  unsigned ready = 0;
  if (r <= 0) return ready;
  for (std::size_t i = 0; i < fds.size(); ++i)
    if (fds[i].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR))) ready |= 1U << i;
  return ready;
}

}  // namespace opentabs::platform
