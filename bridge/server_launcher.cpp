// Probing for and auto-starting the server (see server_launcher.hpp).
#include "bridge/server_launcher.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "bridge/contact_failure.hpp"
#include "net/http_client.hpp"
#include "net/net_failure.hpp"
#include "util/descriptors.hpp"

namespace opentabs::bridge {

namespace {

// fork/exec of /proc/self/exe start --background --port <p> in its own session, with
// /dev/null as stdin and its output in the bridge log (never our stdout), and no other
// descriptor of ours: an inherited copy of the client's stdin/stdout pipe would keep the
// client waiting for an EOF that only comes when the server exits.  Returns the child's pid.
result<pid_t> spawn_start_background(std::uint16_t port, const std::filesystem::path& log_file) {
  char exe[4096];
  ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return make_error(errc::io, "cannot find our own executable (/proc/self/exe)");
  exe[n] = '\0';
  int log_fd = ::open(log_file.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  int null_fd = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  if (log_fd < 0 || null_fd < 0) {
    if (log_fd >= 0) ::close(log_fd);
    if (null_fd >= 0) ::close(null_fd);
    return make_error(errc::io, std::string("cannot prepare the server process: ") + std::strerror(errno));
  }
  std::string port_text = std::to_string(port);
  std::vector<std::string> words = {"opentabs", "start", "--background", "--port", port_text};
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) {
    int e = errno;
    ::close(log_fd);
    ::close(null_fd);
    return make_error(errc::io, std::string("fork failed: ") + std::strerror(e));
  }
  if (pid == 0) {
    // Child: only async-signal-safe calls from here on.
    ::setsid();
    ::dup2(null_fd, STDIN_FILENO);
    ::dup2(log_fd, STDOUT_FILENO);
    ::dup2(log_fd, STDERR_FILENO);
    close_descriptors_from(3);
    ::execv(exe, argv.data());
    ::_exit(127);
  }
  ::close(log_fd);
  ::close(null_fd);
  return pid;
}

}  // namespace

net::awaitable<status> probe_server(std::uint16_t port) {
  net::http_client_options opts;
  opts.connect_timeout = std::chrono::seconds(2);
  opts.idle_timeout = std::chrono::seconds(5);
  opts.total_timeout = std::chrono::seconds(5);
  net::http_client client(co_await asio::this_coro::executor, "127.0.0.1", port, opts);
  net::http_client_request req{"GET", "/health", {}, ""};
  auto r = co_await client.send(req);
  if (!r && r.err().is(net::net_failure::connect_failed))
    co_return make_error(contact_failure::server_not_running, r.err().message);
  if (!r) co_return r.err();
  if (r->header("x-opentabs-version").empty())
    co_return make_error(contact_failure::port_in_use, "port " + std::to_string(port) + " is used by another program (not opentabs)");
  co_return ok();
}

namespace {

// Notes the exit of the `start --background` child once it has exited, without waiting.
void note_child_exit(pid_t pid, bool& done, int& status) {
  if (done) return;
  int st = 0;
  if (::waitpid(pid, &st, WNOHANG) != pid) return;
  done = true;
  status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

}  // namespace

net::awaitable<status> ensure_server(const launcher_options& options, const bridge_log& log) {
  auto first = co_await probe_server(options.port);
  if (first || !first.err().is(contact_failure::server_not_running)) co_return first;
  if (!options.auto_start)
    co_return make_error(contact_failure::server_not_running,
                         "no opentabs server on port " + std::to_string(options.port) + "; start one with `opentabs start`");

  log.write("no server on port " + std::to_string(options.port) + "; starting one: opentabs start --background --port " +
            std::to_string(options.port));
  auto pid = spawn_start_background(options.port, log.file());
  if (!pid) co_return make_error(contact_failure::server_not_running, "could not start the server: " + pid.err().message);

  asio::steady_timer timer(co_await asio::this_coro::executor);
  auto deadline = std::chrono::steady_clock::now() + options.start_timeout;
  bool child_done = false;
  int child_status = 0;
  // Loops leave with break, never co_return (GCC 12 mis-compiles some co_returns inside
  // coroutine loops); `outcome` holds the answer once there is one.
  std::optional<status> outcome;
  while (std::chrono::steady_clock::now() < deadline) {
    note_child_exit(*pid, child_done, child_status);
    auto probe = co_await probe_server(options.port);
    if (probe) {
      log.write("server is up on port " + std::to_string(options.port));
      outcome = ok();
      break;
    }
    if (probe.err().is(contact_failure::port_in_use)) {
      outcome = probe;
      break;
    }
    // `start --background` exits once the server is healthy or has failed; a failure
    // with nothing listening means there is no point in waiting longer.
    if (child_done && child_status != 0) {
      outcome = make_error(contact_failure::server_not_running, "`opentabs start --background` failed (exit " +
                                                                    std::to_string(child_status) + "); see " +
                                                                    log.file().string());
      break;
    }
    timer.expires_after(options.poll_interval);
    co_await timer.async_wait(net::as_value);
  }
  // `start --background` exits right after the server answers; reap it so it does not
  // linger as a zombie for the bridge's lifetime (bounded wait).
  const bool up = outcome && outcome->ok();
  for (int i = 0; i < 100 && up && !child_done; ++i) {
    int st = 0;
    if (::waitpid(*pid, &st, WNOHANG) == *pid) break;
    timer.expires_after(std::chrono::milliseconds(50));
    co_await timer.async_wait(net::as_value);
  }
  if (outcome) co_return *outcome;
  co_return make_error(contact_failure::server_not_running,
                       "the server did not answer on port " + std::to_string(options.port) + " within " +
                           std::to_string(options.start_timeout.count()) + " ms; see " + log.file().string());
}

}  // namespace opentabs::bridge
