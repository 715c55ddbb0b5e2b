#include "tools/tool.hpp"

namespace opentabs::tools {

std::string_view to_string(permission p) {
  switch (p) {
    case permission::off: return "off";
    case permission::ask: return "ask";
    case permission::auto_: return "auto";
  }
  return "off";
}

std::optional<permission> parse_permission(std::string_view s) {
  if (s == "off") return permission::off;
  if (s == "ask") return permission::ask;
  if (s == "auto") return permission::auto_;
  return std::nullopt;
}

}  // namespace opentabs::tools
