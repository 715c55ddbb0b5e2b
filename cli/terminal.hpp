// Output friendliness for the CLI: whether to use colour (only on a TTY, never with
// NO_COLOR, TERM=dumb or --no-color), the terminal width, tables that fit it, and a
// progress indicator for slow steps (a spinner on a TTY, one line otherwise).  Table
// rendering is pure so it is unit-tested at any width.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace opentabs::cli {

struct terminal {
  bool color_stdout = false;
  bool color_stderr = false;
  bool stdout_tty = false;
  bool stderr_tty = false;
  bool stdin_tty = false;
  std::size_t width = 100;

  // From the real process: isatty, NO_COLOR, TERM, COLUMNS, TIOCGWINSZ.
  static terminal detect(bool no_color_flag);
};

// ANSI styling; returns `text` unchanged when `on` is false.
std::string bold(std::string_view text, bool on);
std::string dim(std::string_view text, bool on);
std::string green(std::string_view text, bool on);
std::string red(std::string_view text, bool on);
std::string yellow(std::string_view text, bool on);
std::string cyan(std::string_view text, bool on);

// Display width of UTF-8 text (code points; ANSI escapes count as zero).
std::size_t display_width(std::string_view text);
// Cuts `text` to at most `width` columns, ending in "…" when cut.
std::string truncate_to(std::string_view text, std::size_t width);

// A table with a header row.  Columns keep their natural width; when the whole table is
// wider than `width`, the last column (descriptions, errors) is shortened first, then the
// widest others, so each row stays on one line.  Cells must not contain newlines (they
// are replaced by spaces).
std::string render_table(const std::vector<std::string>& headers, const std::vector<std::vector<std::string>>& rows,
                         std::size_t width, bool color);

// Progress feedback on stderr for a step that may take a while.  On a TTY a spinner line
// that tick() animates and done()/fail() replaces; elsewhere the message once and the outcome.
class progress {
 public:
  progress(const terminal& term, std::string message);
  ~progress();
  void tick();
  void update(std::string message);
  void done(std::string_view outcome = "");
  void fail(std::string_view outcome = "");

 private:
  void draw();
  bool tty_;
  bool color_;
  bool finished_ = false;
  std::string message_;
  std::size_t frame_ = 0;
  std::chrono::steady_clock::time_point last_draw_{};
};

}  // namespace opentabs::cli
