// The opentabs command line: parses argv and runs one command (start, stop, status, tool,
// config, ...).  Returns the process exit code: 0 only on success.
#pragma once

namespace opentabs::cli {

int run(int argc, char** argv);

}  // namespace opentabs::cli
