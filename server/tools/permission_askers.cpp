// The askers' shared vocabulary (see permission_askers.hpp).
#include "tools/permission_askers.hpp"

#include "util/sha256.hpp"

namespace opentabs::tools {

std::string arguments_digest(const json::object& arguments) { return sha256_hex(json::dump(arguments)); }

}  // namespace opentabs::tools
