#include "plugins/plugin.hpp"

#include "plugins/naming.hpp"
#include "plugins/platform_arguments.hpp"

namespace opentabs::plugins {

const tools::tool_def* plugin::find_tool(std::string_view base_name) const {
  for (auto& t : tools)
    if (t.base_name == base_name) return &t;
  return nullptr;
}

plugin make_plugin(loaded_plugin loaded, const json::object* user_settings) {
  plugin p;
  p.settings = resolve_settings(loaded.config_fields, loaded.url_patterns, loaded.homepage, user_settings);
  p.needs_setup = needs_setup(loaded.config_fields, user_settings);
  p.files = adapter_file_names_for(loaded);
  for (auto& t : loaded.tools) {
    tools::tool_def d;
    d.name = canonical_tool_name(loaded.name, t.name);
    d.plugin = loaded.name;
    d.base_name = t.name;
    d.kind = tools::tool_kind::plugin;
    d.display_name = t.display_name;
    d.description = t.description;
    d.summary = t.summary;
    d.icon = t.icon.empty() ? "wrench" : t.icon;
    d.group = t.group;
    d.input_schema = inject_platform_arguments(t.input_schema, p.settings.instance_map, loaded.display_name);
    d.validator = t.validator;
    p.tools.push_back(std::move(d));
  }
  p.loaded = std::move(loaded);
  return p;
}

}  // namespace opentabs::plugins
