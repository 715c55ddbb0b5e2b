// Text from outside (plugin logs, page titles, error messages) must not forge log lines or
// drive the terminal that shows the log: escape_control_chars() turns every C0 control
// character (\n, \r, \t, ESC, ...), DEL, every C1 control (U+0080–U+009F) and every byte
// that is not part of valid UTF-8 into a visible escape (\n, \r, \t, \xNN, \uNNNN), and
// leaves all other text as it is.  Backslashes are kept as they are, so applying it twice
// gives the same text as applying it once (`opentabs logs` re-escapes lines that
// server.log already holds escaped).  Pure.
#pragma once

#include <string>
#include <string_view>

namespace opentabs {

std::string escape_control_chars(std::string_view text);

}  // namespace opentabs
