// Every `opentabs` command, its arguments, options and help text, in one table that the
// parser, the help renderer and the dispatcher share.
#pragma once

#include <vector>

#include "cli/args.hpp"

namespace opentabs::cli {

const std::vector<command_spec>& command_table();

}  // namespace opentabs::cli
