// The name of a temp file written next to its target before the rename that replaces the
// target: same directory (so the rename is atomic), unique per process and attempt.
#pragma once

#include <filesystem>

namespace opentabs::platform {

// "<path>.tmp.<pid>.<8 random hex digits>"
std::filesystem::path temp_name_beside(const std::filesystem::path& path);

}  // namespace opentabs::platform
