// Child processes and process queries (see process.hpp).
#include "cli/process.hpp"

#include <fstream>

#include "platform/executable_path.hpp"

namespace opentabs::cli {

result<platform::child> spawn_detached_self(const std::vector<std::string>& args, const fs::path& log_file,
                                            const std::vector<std::pair<std::string, std::string>>& extra_env) {
  std::error_code ec;
  platform::child_spec spec;
  spec.program = platform::executable_path(ec);
  if (ec) return make_error(errc::io, "cannot find our own executable: " + ec.message());
  spec.argv.push_back("opentabs");
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.group = platform::child_group::own_session;
  spec.output_file = log_file;
  spec.extra_env = extra_env;
  platform::child child;
  if (auto e = platform::spawn(spec, child)) return make_error(errc::io, "cannot start " + spec.program.string() + ": " + e.message());
  return child;
}

std::optional<int> reap_child(platform::child& child) {
  auto st = child.try_wait();
  if (!st) return std::nullopt;
  if (st->signal != 0) return 128 + st->signal;
  return st->code;
}

namespace {

// How long one wait on the pipes lasts: `tick` runs once per wait, so a progress line keeps
// moving while a quiet child runs.
constexpr std::chrono::milliseconds kTickInterval{100};

// Reads both pipes of `child` until they end or `deadline` passes (then its group is
// stopped); `tick` runs after every wait on the pipes.
void collect_output(platform::child& child, captured& c, std::chrono::steady_clock::time_point deadline,
                    const std::function<void()>& tick, std::size_t max_bytes) {
  platform::native_handle pipes[2] = {child.take_stdout(), child.take_stderr()};
  char buf[16384];
  while (pipes[0] != platform::kNoHandle || pipes[1] != platform::kNoHandle) {
    if (std::chrono::steady_clock::now() >= deadline) {
      c.timed_out = true;
      child.kill_group(false);
      break;
    }
    unsigned ready = platform::wait_readable(pipes, kTickInterval);
    if (tick) tick();
    for (int i = 0; i < 2; ++i) {
      if (!(ready & (1U << i))) continue;
      auto n = platform::read_pipe(pipes[i], buf, sizeof buf);
      if (n <= 0) {
        platform::close_handle(pipes[i]);
        pipes[i] = platform::kNoHandle;
        continue;
      }
      std::string& dst = i == 0 ? c.out : c.err;
      if (dst.size() < max_bytes) dst.append(buf, std::min<std::size_t>(static_cast<std::size_t>(n), max_bytes - dst.size()));
    }
  }
  for (auto p : pipes) platform::close_handle(p);
}

}  // namespace

result<captured> run_capture(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                             const std::function<void()>& tick, std::size_t max_bytes) {
  if (argv.empty() || argv[0].empty()) return make_error(errc::io, "no program given");
  platform::child_spec spec;
  spec.argv = argv;
  platform::child child;
  if (auto ec = platform::spawn(spec, child)) {
    if (ec == std::errc::no_such_file_or_directory)
      return make_error(errc::not_found, "'" + argv[0] + "' is not installed (not on PATH)");
    return make_error(errc::io, "cannot run " + argv[0] + ": " + ec.message());
  }
  captured c;
  collect_output(child, c, std::chrono::steady_clock::now() + timeout, tick, max_bytes);
  auto st = child.wait();
  if (!c.timed_out && st.signal == 0) c.exit_code = st.code;
  return c;
}

bool looks_like_opentabs_server(long pid) { return platform::is_opentabs_server(pid); }

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
