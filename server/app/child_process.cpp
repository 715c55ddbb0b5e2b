#include "app/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <memory>

extern char** environ;

namespace opentabs::app {

namespace {

using namespace std::chrono_literals;
using namespace asio::experimental::awaitable_operators;

// Everything one running child needs; shared by the waiting coroutine, the two pipe readers
// (a task_group of run_process) and, for a launcher left running, the reaper (a task of the
// caller's background group).
struct child_state {
  explicit child_state(asio::any_io_executor ex) : out(ex), err(ex), exit_fd(ex) {}
  // The last owner is gone while the child still runs: the server is shutting down with the
  // command in flight.  A command we would kill at its deadline is killed now rather than
  // left running after us (an orphaned npm writing into its cache).  Never after reaping:
  // the pid may belong to someone else by then.
  ~child_state() {
    if (kill_when_abandoned && !reaped && pid > 0) ::kill(-pid, SIGKILL);
  }
  pid_t pid = -1;
  bool kill_when_abandoned = false;
  bool reaped = false;
  bool abandoned = false;  // the server is shutting down: stop waiting for the exit
  bool status_known = false;
  int status = 0;
  asio::posix::stream_descriptor out, err, exit_fd;
  std::size_t max_bytes = 0;
  process_outcome outcome;
};

int open_pidfd(pid_t pid) {
#ifdef SYS_pidfd_open
  return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
  (void)pid;
  errno = ENOSYS;
  return -1;
#endif
}

// Collects the exit status if the child has exited (blocking only when asked to and
// only after the pidfd said it has exited).
bool try_reap(child_state& s, bool block) {
  if (s.reaped) return true;
  int st = 0;
  pid_t r;
  do {
    r = ::waitpid(s.pid, &st, block ? 0 : WNOHANG);
  } while (r < 0 && errno == EINTR);
  if (r == s.pid) {
    s.reaped = true;
    s.status_known = true;
    s.status = st;
    return true;
  }
  if (r < 0) {  // ECHILD: nothing left to wait for
    s.reaped = true;
    return true;
  }
  return false;
}

net::awaitable<void> wait_exit(std::shared_ptr<child_state> s) {
  if (s->exit_fd.is_open()) {
    auto [ec] = co_await s->exit_fd.async_wait(asio::posix::descriptor_base::wait_read, net::as_value);
    if (ec) co_return;  // cancelled: the deadline won
    try_reap(*s, true);  // readable pidfd = the child is a zombie; this returns at once
    co_return;
  }
  // No pidfd (old kernel): poll.
  asio::steady_timer tick(s->exit_fd.get_executor());
  while (!s->abandoned && !try_reap(*s, false)) {
    tick.expires_after(25ms);
    auto [ec] = co_await tick.async_wait(net::as_value);
    if (ec) co_return;
  }
}

net::awaitable<void> drain(std::shared_ptr<child_state> s, bool is_err) {
  auto& d = is_err ? s->err : s->out;
  auto& buf = is_err ? s->outcome.err : s->outcome.out;
  auto& truncated = is_err ? s->outcome.err_truncated : s->outcome.out_truncated;
  std::array<char, 16384> chunk;
  for (;;) {
    auto [ec, n] = co_await d.async_read_some(asio::buffer(chunk), net::as_value);
    if (n > 0) {
      std::size_t room = s->max_bytes > buf.size() ? s->max_bytes - buf.size() : 0;
      buf.append(chunk.data(), std::min(n, room));
      if (n > room) truncated = true;
    }
    if (ec) break;
  }
}

// The background reaper of a child still running after run_process returned; `give_up`
// (held for as long as it waits) ends the wait when the group closes.
net::awaitable<void> reap_later(std::shared_ptr<child_state> s, net::task_group::stop_registration give_up) {
  (void)give_up;
  co_await wait_exit(s);
}

void reap_in_background(net::task_group& background, const std::shared_ptr<child_state>& s, const std::string& program) {
  auto give_up = background.on_close([s] {
    s->abandoned = true;
    asio::error_code ignored;
    s->exit_fd.cancel(ignored);
  });
  background.spawn(reap_later(s, std::move(give_up)), "reaper of " + program);
}

struct spawn_result {
  pid_t pid = -1;
  int out_fd = -1;
  int err_fd = -1;
};

result<spawn_result> spawn_child(const std::vector<std::string>& argv) {
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) return make_error(errc::io, std::string("pipe: ") + std::strerror(errno));
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    int e = errno;
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    return make_error(errc::io, std::string("pipe: ") + std::strerror(e));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  // Asio's sockets are not close-on-exec: without this npm would inherit the listening
  // socket and every client connection.
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);

  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // Own process group (so a timeout can kill npm and everything it started), default
  // dispositions for signals the server ignores (SIGPIPE), and an empty signal mask.
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&attr, 0);
  sigset_t defaults;
  sigemptyset(&defaults);
  for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGCHLD, SIGQUIT}) sigaddset(&defaults, sig);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  sigset_t mask;
  sigemptyset(&mask);
  posix_spawnattr_setsigmask(&attr, &mask);

  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  int rc = ::posix_spawnp(&pid, argv[0].c_str(), &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (rc != 0) {
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    if (rc == ENOENT) return make_error(errc::not_found, argv[0] + " is not installed or not on PATH");
    return make_error(errc::io, "cannot start " + argv[0] + ": " + std::strerror(rc));
  }
  return spawn_result{pid, out_pipe[0], err_pipe[0]};
}

}  // namespace

net::awaitable<result<process_outcome>> run_process(net::task_group& background, std::vector<std::string> argv,
                                                    process_options options) {
  if (argv.empty() || argv[0].empty()) co_return make_error(errc::io, "no program given");
  auto spawned = spawn_child(argv);
  if (!spawned) co_return spawned.err();

  auto ex = background.executor();
  auto s = std::make_shared<child_state>(ex);
  s->pid = spawned->pid;
  s->kill_when_abandoned = options.kill_on_timeout;
  s->max_bytes = options.max_output_bytes;
  s->out.assign(spawned->out_fd);
  s->err.assign(spawned->err_fd);
  if (int pfd = open_pidfd(s->pid); pfd >= 0) {
    ::fcntl(pfd, F_SETFD, FD_CLOEXEC);
    s->exit_fd.assign(pfd);
  }
  // Shutdown (the group closing) ends a command we would kill at its deadline now, as the
  // deadline would; a launcher is left running, as at its deadline.
  net::task_group::stop_registration kill_on_close;
  if (options.kill_on_timeout)
    kill_on_close = background.on_close([s] {
      if (!s->reaped && s->pid > 0) ::kill(-s->pid, SIGKILL);
    });
  net::task_group readers(ex);  // end of file on both pipes, or the pipes closed below
  readers.spawn(drain(s, false), "child stdout reader");
  readers.spawn(drain(s, true), "child stderr reader");

  asio::steady_timer deadline(ex, options.timeout);
  auto first = co_await (wait_exit(s) || deadline.async_wait(net::as_value));
  if (first.index() == 1 && !s->reaped) {
    s->outcome.timed_out = true;
    if (options.kill_on_timeout) {
      ::kill(-s->pid, SIGKILL);
      // SIGKILL cannot be caught: the exit follows at once.  The guard only protects the
      // io thread from a child stuck in an uninterruptible wait.
      asio::steady_timer guard(ex, 5s);
      co_await (wait_exit(s) || guard.async_wait(net::as_value));
      if (!s->reaped) reap_in_background(background, s, argv[0]);
    } else {
      // A launcher still running: leave it, collect its status whenever it exits.
      reap_in_background(background, s, argv[0]);
    }
  }
  // What the child wrote just before exiting may still sit in the pipes.
  if (readers.size() > 0 && s->reaped && !s->outcome.timed_out) co_await readers.wait(net::steady_clock::now() + 2s);
  // A grandchild still holding the pipes (npm lifecycle scripts) must not outlive us.
  if (options.kill_on_timeout && readers.size() > 0) ::kill(-s->pid, SIGKILL);
  asio::error_code ignored;
  s->out.close(ignored);
  s->err.close(ignored);
  if (s->reaped) s->exit_fd.close(ignored);
  // Their pipes closed, the readers end at their next wait.
  co_await readers.wait(net::steady_clock::now() + 1s);

  process_outcome out = std::move(s->outcome);
  if (s->status_known && !out.timed_out) {
    if (WIFEXITED(s->status)) out.exit_code = WEXITSTATUS(s->status);
    else if (WIFSIGNALED(s->status)) out.term_signal = WTERMSIG(s->status);
  }
  co_return out;
}

}  // namespace opentabs::app
