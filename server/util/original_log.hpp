// The lines the original OpenTabs server prints on stdout at fixed moments ("Config loaded",
// "tab.syncAll received [...]", "Hot reload complete", ...).  Tooling and tests written for
// the original wait for these exact texts, so opentabs prints them too, beside its own
// diagnostic log (util/log.hpp), in the same "[opentabs] <ISO time> <message>" form, on
// stdout, flushed at once so a reader of a pipe sees each as it happens.  Shown at the info
// level of OPENTABS_LOG_LEVEL; control characters in names are written escaped.
#pragma once

#include <string_view>

namespace opentabs::log {

void original_line(std::string_view message);

}  // namespace opentabs::log
