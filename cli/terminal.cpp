// Colour, width, tables and progress for the CLI (see terminal.hpp).
#include "cli/terminal.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "platform/standard_streams.hpp"
#include "util/env.hpp"

namespace opentabs::cli {

terminal terminal::detect(bool no_color_flag) {
  terminal t;
  t.stdout_tty = platform::is_terminal(platform::standard_stream::output);
  t.stderr_tty = platform::is_terminal(platform::standard_stream::error);
  t.stdin_tty = platform::is_terminal(platform::standard_stream::input);
  const char* no_color = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  bool allowed = !no_color_flag && !(no_color && *no_color) && !(term && std::strcmp(term, "dumb") == 0);
  t.color_stdout = allowed && t.stdout_tty;
  t.color_stderr = allowed && t.stderr_tty;
  if (auto cols = t.stdout_tty ? platform::terminal_columns() : std::nullopt) {
    t.width = *cols;
  } else if (auto cols = read_env_integer("COLUMNS", 20, 1000); cols && *cols) {
    t.width = static_cast<std::size_t>(**cols);  // a width out of range keeps the default, quietly
  }
  return t;
}

namespace {
std::string wrap_sgr(std::string_view text, const char* code, bool on) {
  if (!on) return std::string(text);
  return std::string("\x1b[") + code + "m" + std::string(text) + "\x1b[0m";
}
}  // namespace

std::string bold(std::string_view t, bool on) { return wrap_sgr(t, "1", on); }
std::string dim(std::string_view t, bool on) { return wrap_sgr(t, "2", on); }
std::string green(std::string_view t, bool on) { return wrap_sgr(t, "32", on); }
std::string red(std::string_view t, bool on) { return wrap_sgr(t, "31", on); }
std::string yellow(std::string_view t, bool on) { return wrap_sgr(t, "33", on); }
std::string cyan(std::string_view t, bool on) { return wrap_sgr(t, "36", on); }

std::size_t display_width(std::string_view text) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == 0x1b && i + 1 < text.size() && text[i + 1] == '[') {  // skip an SGR sequence
      i += 2;
      while (i < text.size() && text[i] != 'm') ++i;
      continue;
    }
    if ((c & 0xC0) != 0x80) ++n;  // count lead bytes only
  }
  return n;
}

std::string truncate_to(std::string_view text, std::size_t width) {
  if (display_width(text) <= width) return std::string(text);
  if (width == 0) return {};
  std::string out;
  std::size_t cols = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c & 0xC0) != 0x80) {
      if (cols + 1 > width - 1) break;
      ++cols;
    }
    out.push_back(text[i]);
  }
  return out + "…";
}

std::string render_table(const std::vector<std::string>& headers, const std::vector<std::vector<std::string>>& rows,
                         std::size_t width, bool color) {
  const std::size_t n = headers.size();
  auto clean = [](std::string s) {
    std::replace(s.begin(), s.end(), '\n', ' ');
    std::replace(s.begin(), s.end(), '\r', ' ');
    return s;
  };
  std::vector<std::vector<std::string>> cells;
  cells.push_back(headers);
  for (const auto& r : rows) {
    std::vector<std::string> row;
    for (std::size_t i = 0; i < n; ++i) row.push_back(i < r.size() ? clean(r[i]) : "");
    cells.push_back(std::move(row));
  }
  std::vector<std::size_t> w(n, 0);
  for (const auto& r : cells)
    for (std::size_t i = 0; i < n; ++i) w[i] = std::max(w[i], display_width(r[i]));
  const std::size_t gap = 2;
  auto total = [&] {
    std::size_t t = 0;
    for (auto x : w) t += x;
    return t + gap * (n > 0 ? n - 1 : 0);
  };
  // Shrink the last column down to 10, then the widest other column, until it fits.
  while (total() > width) {
    std::size_t target = n - 1;
    if (w[target] <= 10) {
      target = 0;
      for (std::size_t i = 1; i < n; ++i)
        if (w[i] > w[target]) target = i;
      if (w[target] <= 8) break;  // cannot shrink further: let the terminal wrap
    }
    --w[target];
  }
  std::string out;
  for (std::size_t r = 0; r < cells.size(); ++r) {
    std::string line;
    for (std::size_t i = 0; i < n; ++i) {
      std::string cell = truncate_to(cells[r][i], w[i]);
      if (i + 1 < n) cell += std::string(w[i] - display_width(cell) + gap, ' ');
      line += cell;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += (r == 0 ? bold(line, color) : line) + "\n";
  }
  return out;
}

progress::progress(const terminal& term, std::string message)
    : tty_(term.stderr_tty), color_(term.color_stderr), message_(std::move(message)) {
  if (tty_) {
    draw();
  } else {
    std::fprintf(stderr, "%s...\n", message_.c_str());
  }
}

progress::~progress() {
  if (!finished_ && tty_) std::fprintf(stderr, "\r\x1b[2K");
}

void progress::draw() {
  static const char* frames[] = {"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"};
  std::fprintf(stderr, "\r\x1b[2K%s %s", cyan(frames[frame_ % 10], color_).c_str(), message_.c_str());
  std::fflush(stderr);
  last_draw_ = std::chrono::steady_clock::now();
}

void progress::tick() {
  if (!tty_ || finished_) return;
  if (std::chrono::steady_clock::now() - last_draw_ < std::chrono::milliseconds(80)) return;
  ++frame_;
  draw();
}

void progress::update(std::string message) {
  message_ = std::move(message);
  if (tty_) draw();
}

void progress::done(std::string_view outcome) {
  if (finished_) return;
  finished_ = true;
  std::string text = outcome.empty() ? message_ : std::string(outcome);
  if (tty_) {
    std::fprintf(stderr, "\r\x1b[2K%s %s\n", green("✓", color_).c_str(), text.c_str());
  } else if (!outcome.empty()) {
    std::fprintf(stderr, "%s\n", text.c_str());
  }
}

void progress::fail(std::string_view outcome) {
  if (finished_) return;
  finished_ = true;
  std::string text = outcome.empty() ? message_ : std::string(outcome);
  if (tty_) std::fprintf(stderr, "\r\x1b[2K%s %s\n", red("✗", color_).c_str(), text.c_str());
}

}  // namespace opentabs::cli
