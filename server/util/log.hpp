// The server's diagnostic log: one line per event, "[opentabs] <ISO time> <message>", on
// stderr (the CLI tees it into server.log).  Level from OPENTABS_LOG_LEVEL
// (debug|info|warn|error|silent).  Callers must never pass secrets.  Every entry is one
// line: control characters in messages (newlines, terminal escapes) are written escaped
// (util/control_chars.hpp), so text from pages and plugins cannot forge lines or reach the
// terminal of `opentabs logs` as escape sequences.
#pragma once

#include <string_view>

namespace opentabs::log {

enum class level { debug = 0, info = 1, warn = 2, error = 3, silent = 4 };

void set_level(level l);
level current_level();
// Reads OPENTABS_LOG_LEVEL; unknown values keep the default (info).
void init_from_env();

void write(level l, std::string_view message);
// A line with a custom prefix instead of "[opentabs]" (plugin logs use "[plugin:<name>]").
void write_prefixed(std::string_view prefix, std::string_view message);

inline void debug(std::string_view m) { write(level::debug, m); }
inline void info(std::string_view m) { write(level::info, m); }
inline void warn(std::string_view m) { write(level::warn, m); }
inline void error(std::string_view m) { write(level::error, m); }

}  // namespace opentabs::log
