// Entry point of the single `opentabs` binary: hands argv to the command dispatcher.
#include "cli/cli.hpp"

int main(int argc, char** argv) { return opentabs::cli::run(argc, argv); }
