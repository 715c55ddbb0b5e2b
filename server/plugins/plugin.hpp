// A discovered, loaded and configured plugin: what the registry, sync.full, /health and the
// tool-call pipeline need, assembled once per reload.  Immutable after make_plugin().
#pragma once

#include <string_view>
#include <vector>

#include "plugins/adapter_files.hpp"
#include "plugins/loader.hpp"
#include "plugins/settings.hpp"
#include "tools/tool.hpp"

namespace opentabs::plugins {

struct plugin {
  loaded_plugin loaded;
  resolved_settings settings;  // effective url patterns, homepage, instanceMap, resolvedSettings
  adapter_file_names files;
  bool needs_setup = false;
  // One per loaded.tools, same order: name "<plugin>_<tool>", kind plugin, input_schema with
  // the injected tabId/instance, validator for the stripped arguments (compiled on first use).
  std::vector<tools::tool_def> tools;

  const std::string& name() const { return loaded.name; }
  // By base name ("send_message").
  const tools::tool_def* find_tool(std::string_view base_name) const;
};

// `user_settings` is config.json settings[<plugin>] (may be null).
plugin make_plugin(loaded_plugin loaded, const json::object* user_settings);

}  // namespace opentabs::plugins
