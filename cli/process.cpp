// Child processes and process queries (see process.hpp).
#include "cli/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <thread>

#include "util/descriptors.hpp"
#include "util/files.hpp"

extern char** environ;

namespace opentabs::cli {

namespace {

std::vector<char*> to_argv(std::vector<std::string>& words) {
  std::vector<char*> v;
  for (auto& w : words) v.push_back(w.data());
  v.push_back(nullptr);
  return v;
}

// The environment with `extra` set (replacing same-named entries).
std::vector<std::string> env_with(const std::vector<std::pair<std::string, std::string>>& extra) {
  std::vector<std::string> out;
  for (char** e = environ; e && *e; ++e) {
    std::string entry(*e);
    bool replaced = false;
    for (const auto& [k, v] : extra)
      if (entry.compare(0, k.size() + 1, k + "=") == 0) replaced = true;
    if (!replaced) out.push_back(std::move(entry));
  }
  for (const auto& [k, v] : extra) out.push_back(k + "=" + v);
  return out;
}

}  // namespace

result<long> spawn_detached_self(const std::vector<std::string>& args, const fs::path& log_file,
                                 const std::vector<std::pair<std::string, std::string>>& extra_env) {
  int log_fd = ::open(log_file.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (log_fd < 0) return make_error(errc::io, "cannot open " + log_file.string() + ": " + std::strerror(errno));
  int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  int report[2];  // the child reports an exec failure through this close-on-exec pipe
  if (null_fd < 0 || ::pipe2(report, O_CLOEXEC) != 0) {
    ::close(log_fd);
    if (null_fd >= 0) ::close(null_fd);
    return make_error(errc::io, std::string("cannot prepare the child process: ") + std::strerror(errno));
  }
  std::vector<std::string> words;
  words.push_back("opentabs");
  words.insert(words.end(), args.begin(), args.end());
  auto argv = to_argv(words);
  auto env_words = env_with(extra_env);
  auto envp = to_argv(env_words);
  char exe[4096];
  ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return make_error(errc::io, "cannot find our own executable (/proc/self/exe)");
  exe[n] = '\0';

  pid_t pid = ::fork();
  if (pid < 0) return make_error(errc::io, std::string("fork failed: ") + std::strerror(errno));
  if (pid == 0) {
    // Child: only async-signal-safe calls from here on.
    ::setsid();
    ::dup2(null_fd, STDIN_FILENO);
    ::dup2(log_fd, STDOUT_FILENO);
    ::dup2(log_fd, STDERR_FILENO);
    close_descriptors_from(3, report[1]);  // nothing else of ours (sockets, a client's pipes)
    ::execve(exe, argv.data(), envp.data());
    int e = errno;
    (void)!::write(report[1], &e, sizeof e);
    ::_exit(127);
  }
  ::close(report[1]);
  ::close(log_fd);
  ::close(null_fd);
  int child_errno = 0;
  ssize_t got = ::read(report[0], &child_errno, sizeof child_errno);
  ::close(report[0]);
  if (got == static_cast<ssize_t>(sizeof child_errno)) {
    ::waitpid(pid, nullptr, 0);
    return make_error(errc::io, std::string("cannot start ") + exe + ": " + std::strerror(child_errno));
  }
  return static_cast<long>(pid);
}

std::optional<int> reap_child(long pid) {
  int status = 0;
  pid_t r = ::waitpid(static_cast<pid_t>(pid), &status, WNOHANG);
  if (r == 0) return std::nullopt;
  if (r < 0) return -1;  // not our child (or already reaped)
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

result<captured> run_capture(const std::vector<std::string>& argv_in, std::chrono::milliseconds timeout,
                             const std::function<void()>& tick, std::size_t max_bytes) {
  int out_pipe[2], err_pipe[2], report[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(err_pipe, O_CLOEXEC) != 0 || ::pipe2(report, O_CLOEXEC) != 0)
    return make_error(errc::io, std::string("pipe failed: ") + std::strerror(errno));
  std::vector<std::string> words = argv_in;
  auto argv = to_argv(words);
  int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  pid_t pid = ::fork();
  if (pid < 0) return make_error(errc::io, std::string("fork failed: ") + std::strerror(errno));
  if (pid == 0) {
    ::setpgid(0, 0);  // own process group, so a timeout can end its children too
    ::dup2(null_fd, STDIN_FILENO);
    ::dup2(out_pipe[1], STDOUT_FILENO);
    ::dup2(err_pipe[1], STDERR_FILENO);
    close_descriptors_from(3, report[1]);
    ::execvp(argv[0], argv.data());
    int e = errno;
    (void)!::write(report[1], &e, sizeof e);
    ::_exit(127);
  }
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  ::close(report[1]);
  if (null_fd >= 0) ::close(null_fd);
  int child_errno = 0;
  ssize_t got = ::read(report[0], &child_errno, sizeof child_errno);
  ::close(report[0]);
  if (got == static_cast<ssize_t>(sizeof child_errno)) {
    ::waitpid(pid, nullptr, 0);
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    if (child_errno == ENOENT) return make_error(errc::not_found, "'" + argv_in[0] + "' is not installed (not on PATH)");
    return make_error(errc::io, "cannot run " + argv_in[0] + ": " + std::strerror(child_errno));
  }

  captured c;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  int open_fds = 2;
  char buf[16384];
  while (open_fds > 0) {
    if (std::chrono::steady_clock::now() >= deadline) {
      c.timed_out = true;
      ::kill(-pid, SIGTERM);
      break;
    }
    int r = ::poll(fds, 2, 100);
    if (tick) tick();
    if (r < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n <= 0) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
        continue;
      }
      std::string& dst = i == 0 ? c.out : c.err;
      if (dst.size() < max_bytes) dst.append(buf, std::min<std::size_t>(static_cast<std::size_t>(n), max_bytes - dst.size()));
    }
  }
  for (auto& f : fds)
    if (f.fd >= 0) ::close(f.fd);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!c.timed_out && WIFEXITED(status)) c.exit_code = WEXITSTATUS(status);
  return c;
}

bool looks_like_opentabs_server(long pid) {
  auto text = read_file("/proc/" + std::to_string(pid) + "/cmdline", 64 * 1024);
  if (!text) return false;
  std::vector<std::string> args;
  std::string cur;
  for (char ch : *text) {
    if (ch == '\0') {
      args.push_back(cur);
      cur.clear();
    } else {
      cur.push_back(ch);
    }
  }
  if (!cur.empty()) args.push_back(cur);
  if (args.size() < 2) return false;
  auto base = fs::path(args[0]).filename().string();
  bool is_opentabs = base.find("opentabs") != std::string::npos;
  bool is_start = false;
  for (std::size_t i = 1; i < args.size(); ++i)
    if (args[i] == "start") is_start = true;
  return is_opentabs && is_start;
}

std::string tail_lines(const fs::path& file, std::size_t n) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return {};
  std::error_code ec;
  auto size = fs::file_size(file, ec);
  if (!ec && size > 64 * 1024) in.seekg(static_cast<std::streamoff>(size - 64 * 1024));
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  std::string out;
  for (std::size_t i = lines.size() > n ? lines.size() - n : 0; i < lines.size(); ++i) out += lines[i] + "\n";
  return out;
}

}  // namespace opentabs::cli
