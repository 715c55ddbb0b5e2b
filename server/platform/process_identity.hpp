// Questions about processes by id: our own id, whether a pid is alive (a zombie is not), and
// whether a pid is a running opentabs server (so a stale pid file naming a recycled pid is
// never mistaken for one).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace opentabs::platform {

long current_process_id() noexcept;

// false for pid <= 0, for a pid nobody has, and for a process that has exited but is not
// yet reaped.
bool process_alive(long pid);

// The program and arguments of process `pid`, when the OS lets us read them (on Windows only
// the program's path is readable without debugging rights: a one-element list).
std::optional<std::vector<std::string>> process_command_line(long pid);

// Pure: whether a command line is an opentabs server ("…opentabs… start …").  A lone program
// path (all Windows reveals) counts when its file name is an opentabs executable.
bool command_line_is_opentabs_server(const std::vector<std::string>& args);

// Pure: NUL-separated words (the layout of Linux's /proc/<pid>/cmdline and of the argument
// area macOS returns) as a list; a trailing NUL ends the last word.
std::vector<std::string> split_nul_separated(std::string_view text);

bool is_opentabs_server(long pid);

}  // namespace opentabs::platform
