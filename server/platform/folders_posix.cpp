// The environment on Linux and macOS.
#include <cstdlib>

#include "platform/folders.hpp"

namespace opentabs::platform {

std::optional<std::string> environment_variable(std::string_view name) {
  const char* v = std::getenv(std::string(name).c_str());
  if (!v) return std::nullopt;
  return std::string(v);
}

}  // namespace opentabs::platform
