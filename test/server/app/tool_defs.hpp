// A tool definition as the registry holds one, for unit tests: named as the server names
// it (a plugin tool "<plugin>_<base>", any other kind by its base name), nothing else set.
#pragma once

#include <string>

#include "tools/tool.hpp"

namespace opentabs::app::testing {

inline tools::tool_def tool_of_kind(std::string plugin, std::string base, tools::tool_kind kind) {
  tools::tool_def t;
  t.name = kind == tools::tool_kind::plugin ? plugin + "_" + base : base;
  t.plugin = std::move(plugin);
  t.base_name = std::move(base);
  t.kind = kind;
  return t;
}

}  // namespace opentabs::app::testing
