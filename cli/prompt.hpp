// Asking the person at the terminal: a yes/no confirmation and a line of input.  Only
// when stdin is a terminal; scripts must pass --confirm / -y instead.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "cli/terminal.hpp"

namespace opentabs::cli {

// true only for y/yes.  Never asks (returns false) when stdin is not a TTY.
bool confirm(const terminal& term, std::string_view question);

// One line from stdin (without the newline), nullopt on EOF.  `question` goes to stderr.
std::optional<std::string> ask_line(std::string_view question);

}  // namespace opentabs::cli
