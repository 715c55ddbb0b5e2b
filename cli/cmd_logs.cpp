// `opentabs logs`: the tail of server.log, optionally filtered to one plugin's lines and
// followed as it grows (polling; the file is appended by another process).  Lines are
// printed with control characters escaped: the server already writes them so, but a log
// from an older version or another writer must not drive the user's terminal either.
#include <csignal>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "cli/commands.hpp"
#include "cli/output.hpp"
#include "util/control_chars.hpp"

namespace opentabs::cli {

namespace {

volatile std::sig_atomic_t g_stop_follow = 0;
void on_interrupt(int) { g_stop_follow = 1; }

inline constexpr std::size_t kMaxLogLine = 64 * 1024;

void print_log_line(std::string_view line) { print_line(escape_control_chars(line)); }

}  // namespace

namespace {

// The last `lines` lines of the log (of those naming `filter`, when given); leaves `in` at
// the end of what it read.
std::deque<std::string> read_tail(std::ifstream& in, const std::filesystem::path& path, long lines, const std::string& filter) {
  // Only the end of a big log matters: start reading well before the last `lines` lines.
  std::error_code ec;
  auto size = std::filesystem::file_size(path, ec);
  std::uintmax_t window = static_cast<std::uintmax_t>(lines + 1) * 4096 + 65536;
  if (!ec && filter.empty() && size > window) {
    in.seekg(static_cast<std::streamoff>(size - window));
    std::string skip;
    std::getline(in, skip);  // a partial line
  }
  std::deque<std::string> tail;
  std::string line;
  while (std::getline(in, line)) {
    if (line.size() > kMaxLogLine) line.resize(kMaxLogLine);
    if (!filter.empty() && line.find(filter) == std::string::npos) continue;
    tail.push_back(std::move(line));
    if (tail.size() > static_cast<std::size_t>(lines)) tail.pop_front();
  }
  return tail;
}

// Prints what is appended to the log from `pos` on until Ctrl-C; a log that shrank was
// truncated or replaced, so it is read again from its start.
void follow(const std::filesystem::path& path, std::streamoff pos, const std::string& filter) {
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  std::error_code ec;
  std::string partial;
  while (!g_stop_follow) {
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    auto now = std::filesystem::file_size(path, ec);
    if (ec) continue;
    if (static_cast<std::streamoff>(now) < pos) pos = 0;
    if (static_cast<std::streamoff>(now) == pos) continue;
    std::ifstream f(path, std::ios::binary);
    f.seekg(pos);
    std::string chunk(static_cast<std::size_t>(std::min<std::uintmax_t>(now - pos, 1 << 20)), '\0');
    f.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    chunk.resize(static_cast<std::size_t>(f.gcount()));
    pos += static_cast<std::streamoff>(chunk.size());
    partial += chunk;
    std::size_t nl;
    while ((nl = partial.find('\n')) != std::string::npos) {
      std::string l = partial.substr(0, nl);
      partial.erase(0, nl + 1);
      if (filter.empty() || l.find(filter) != std::string::npos) print_log_line(l);
    }
    if (partial.size() > kMaxLogLine) partial.clear();
    std::fflush(stdout);
  }
}

}  // namespace

int cmd_logs(context& ctx, const parsed_command& cmd) {
  long lines = 50;
  if (auto n = cmd.value("lines")) {
    char* end = nullptr;
    lines = std::strtol(n->c_str(), &end, 10);
    if (n->empty() || *end != '\0' || lines < 0 || lines > 1'000'000)
      return report_error(ctx, cli_failure::usage, "invalid --lines '" + *n + "': expected a number from 0 to 1000000");
  }
  std::string filter;
  if (auto p = cmd.value("plugin")) filter = "[plugin:" + *p + "]";
  const auto path = ctx.paths.server_log();
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return report_error(ctx, errc::not_found, "no server log at " + path.string() +
                                              " (it is written by `opentabs start`; a server started otherwise logs to its own stderr)");
  for (const auto& l : read_tail(in, path, lines, filter)) print_log_line(l);
  std::fflush(stdout);
  if (!cmd.has("follow")) return kExitOk;

  in.clear();
  std::streamoff pos = in.tellg();
  std::error_code ec;
  if (pos < 0) pos = static_cast<std::streamoff>(std::filesystem::file_size(path, ec));
  follow(path, pos, filter);
  return kExitOk;
}

}  // namespace opentabs::cli
