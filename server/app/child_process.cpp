#include "app/child_process.hpp"

#include <array>
#include <memory>

#include "platform/async_stdio.hpp"
#include "platform/child_process.hpp"
#include "platform/exit_watch.hpp"

namespace opentabs::app {

namespace {

using namespace std::chrono_literals;
using namespace asio::experimental::awaitable_operators;

// Everything one running child needs; shared by the waiting coroutine, the two pipe readers
// (a task_group of run_process) and, for a launcher left running, the reaper (a task of the
// caller's background group).
struct child_state {
  explicit child_state(asio::any_io_executor ex) : out(ex), err(ex), exit(ex) {}
  // The last owner is gone while the child still runs: the server is shutting down with the
  // command in flight.  A command we would kill at its deadline is killed now rather than
  // left running after us (an orphaned npm writing into its cache).  Never after reaping:
  // the pid may belong to someone else by then (kill_group checks).
  ~child_state() {
    if (kill_when_abandoned) proc.kill_group(true);
  }
  platform::child proc;
  bool kill_when_abandoned = false;
  bool abandoned = false;  // the server is shutting down: stop waiting for the exit
  platform::async_stream out, err;
  platform::exit_watch exit;
  std::size_t max_bytes = 0;
  process_outcome outcome;
};

// Collects the exit status if the child has exited (blocking only when asked to and
// only after the exit watch said it has exited).
bool try_reap(child_state& s, bool block) {
  if (s.proc.reaped()) return true;
  if (block) {
    s.proc.wait();
    return true;
  }
  return s.proc.try_wait().has_value();
}

net::awaitable<void> wait_exit(std::shared_ptr<child_state> s) {
  if (s->exit.is_open()) {
    auto ec = co_await s->exit.wait();
    if (ec) co_return;  // cancelled: the deadline won
    try_reap(*s, true);  // the child has exited; this returns at once
    co_return;
  }
  // Nothing to wait on (macOS, or a kernel without pidfd): poll.
  asio::steady_timer tick(s->exit.get_executor());
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
    s->exit.cancel();
  });
  background.spawn(reap_later(s, std::move(give_up)), "reaper of " + program);
}

// Starts argv[0] in its own process group (so a timeout can kill npm and everything it
// started), with default signal dispositions and nothing of ours inherited but the three
// standard streams: Asio's sockets are not close-on-exec.
result<std::shared_ptr<child_state>> start_child(asio::any_io_executor ex, const std::vector<std::string>& argv,
                                                 const process_options& options) {
  platform::child_spec spec;
  spec.argv = argv;
  auto s = std::make_shared<child_state>(ex);
  if (auto ec = platform::spawn(spec, s->proc)) {
    if (ec == std::errc::no_such_file_or_directory) return make_error(errc::not_found, argv[0] + " is not installed or not on PATH");
    return make_error(errc::io, "cannot start " + argv[0] + ": " + ec.message());
  }
  s->kill_when_abandoned = options.kill_on_timeout;
  s->max_bytes = options.max_output_bytes;
  platform::attach_pipe(s->out, s->proc.take_stdout());
  platform::attach_pipe(s->err, s->proc.take_stderr());
  s->exit.watch(s->proc);
  return s;
}

// Waits for the exit until the deadline; past it, a command is killed (and reaped, or left
// to a background reaper if even SIGKILL does not end it) and a launcher is left running.
net::awaitable<void> wait_until_deadline(net::task_group& background, std::shared_ptr<child_state> s,
                                         const std::string& program, const process_options& options) {
  auto ex = background.executor();
  asio::steady_timer deadline(ex, options.timeout);
  auto first = co_await (wait_exit(s) || deadline.async_wait(net::as_value));
  if (first.index() == 0 || s->proc.reaped()) co_return;
  s->outcome.timed_out = true;
  if (options.kill_on_timeout) {
    s->proc.kill_group(true);
    // SIGKILL cannot be caught: the exit follows at once.  The guard only protects the
    // io thread from a child stuck in an uninterruptible wait.
    asio::steady_timer guard(ex, 5s);
    co_await (wait_exit(s) || guard.async_wait(net::as_value));
    if (!s->proc.reaped()) reap_in_background(background, s, program);
  } else {
    // A launcher still running: leave it, collect its status whenever it exits.
    reap_in_background(background, s, program);
  }
}

// Ends the pipe readers: first letting them take what the child wrote just before exiting,
// then closing the pipes.
net::awaitable<void> finish_reading(std::shared_ptr<child_state> s, net::task_group& readers,
                                    const process_options& options) {
  // What the child wrote just before exiting may still sit in the pipes.
  if (readers.size() > 0 && s->proc.reaped() && !s->outcome.timed_out) co_await readers.wait(net::steady_clock::now() + 2s);
  // A grandchild still holding the pipes (npm lifecycle scripts) must not outlive us.
  if (options.kill_on_timeout && readers.size() > 0) s->proc.kill_group(true);
  asio::error_code ignored;
  s->out.close(ignored);
  s->err.close(ignored);
  if (s->proc.reaped()) s->exit.close();
  // Their pipes closed, the readers end at their next wait.
  co_await readers.wait(net::steady_clock::now() + 1s);
}

// The output collected, and the exit status if the child exited before its deadline.
process_outcome take_outcome(child_state& s) {
  process_outcome out = std::move(s.outcome);
  if (s.proc.reaped() && !out.timed_out) {
    auto st = s.proc.try_wait();  // the status collected at the reap
    out.exit_code = st->signal == 0 ? st->code : -1;
    out.term_signal = st->signal;
  }
  return out;
}

}  // namespace

net::awaitable<result<process_outcome>> run_process(net::task_group& background, std::vector<std::string> argv,
                                                    process_options options) {
  if (argv.empty() || argv[0].empty()) co_return make_error(errc::io, "no program given");
  auto ex = background.executor();
  auto started = start_child(ex, argv, options);
  if (!started) co_return started.err();
  auto s = std::move(*started);
  // Shutdown (the group closing) ends a command we would kill at its deadline now, as the
  // deadline would; a launcher is left running, as at its deadline.
  net::task_group::stop_registration kill_on_close;
  if (options.kill_on_timeout)
    kill_on_close = background.on_close([s] {
      s->proc.kill_group(true);
    });
  net::task_group readers(ex);  // end of file on both pipes, or the pipes closed below
  readers.spawn(drain(s, false), "child stdout reader");
  readers.spawn(drain(s, true), "child stderr reader");

  co_await wait_until_deadline(background, s, argv[0], options);
  co_await finish_reading(s, readers, options);
  co_return take_outcome(*s);
}

}  // namespace opentabs::app
