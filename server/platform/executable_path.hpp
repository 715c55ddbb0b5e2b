// The absolute path of the running executable, which locates the files installed beside it
// and is what a re-launch of ourselves (the background server) executes.
#pragma once

#include <filesystem>
#include <system_error>

namespace opentabs::platform {

// Empty path and `ec` set when the OS cannot say.
std::filesystem::path executable_path(std::error_code& ec);

}  // namespace opentabs::platform
