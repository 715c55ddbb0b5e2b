#include "cli/cli.hpp"

#include <cstdio>

namespace opentabs::cli {

int run(int, char**) {
  std::fprintf(stderr, "opentabs: no commands are implemented yet\n");
  return 1;
}

}  // namespace opentabs::cli
