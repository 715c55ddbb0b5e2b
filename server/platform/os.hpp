// Which operating system this build runs on.  The seam's pure functions take an `os` so that
// every OS's answer (folders, browser locations) can be computed and tested on any OS.
#pragma once

#include <string_view>

namespace opentabs::platform {

enum class os { linux_, macos, windows };

// The OS this binary was built for.
os current_os() noexcept;

std::string_view os_name(os target) noexcept;

// The program that opens a folder in the user's file manager on `target`.
std::string_view folder_opener(os target) noexcept;

}  // namespace opentabs::platform
