// Terminal prompts (see prompt.hpp).
#include "cli/prompt.hpp"

#include <cstdio>
#include <iostream>

#include "util/strings.hpp"

namespace opentabs::cli {

bool confirm(const terminal& term, std::string_view question) {
  if (!term.stdin_tty) return false;
  auto answer = ask_line(std::string(question) + " [y/N] ");
  if (!answer) return false;
  auto a = to_lower(trim(*answer));
  return a == "y" || a == "yes";
}

std::optional<std::string> ask_line(std::string_view question) {
  std::fwrite(question.data(), 1, question.size(), stderr);
  std::fflush(stderr);
  std::string line;
  if (!std::getline(std::cin, line)) return std::nullopt;
  if (line.size() > 64 * 1024) line.resize(64 * 1024);
  return line;
}

}  // namespace opentabs::cli
