// Where the permissions the user grants are kept: "always allow" in a confirmation turns
// the tool's permission to auto, and a reviewed plugin (plugin_mark_reviewed) gets the
// level granted for that version.  plugin_settings persists both in config.json, reloads
// and notifies; an interface so the tool pipeline and platform tools name no storage.
#pragma once

#include <string>

#include "tools/tool.hpp"

namespace opentabs::app {

class permission_grants {
 public:
  virtual ~permission_grants() = default;
  virtual void always_allow(const tools::tool_def& tool) = 0;
  // An error text, or empty.
  virtual std::string grant_reviewed(const std::string& plugin, tools::permission level, const std::string& version) = 0;
};

}  // namespace opentabs::app
