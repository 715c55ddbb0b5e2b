#include "plugins/platform_arguments.hpp"

#include <cmath>

namespace opentabs::plugins {

json::object inject_platform_arguments(const json::object& input_schema, const json::object& instance_map,
                                       std::string_view plugin_display_name) {
  json::object out = input_schema;
  out.erase("$schema");
  if (!out.contains("type")) out["type"] = "object";
  json::object& props = out["properties"].is_object() ? out["properties"].get_object() : out["properties"].emplace_object();
  json::object tab;
  tab["type"] = "integer";
  tab["minimum"] = 1;
  tab["description"] =
      "Optional ID of the browser tab to run this tool in (from plugin_list_tabs or browser_list_tabs). "
      "When omitted, the best matching open tab is used.";
  props["tabId"] = std::move(tab);
  if (instance_map.size() >= 2) {
    json::array names;
    std::string listed;
    for (auto& kv : instance_map) {
      names.push_back(json::str(kv.key()));
      listed += (listed.empty() ? "" : ", ") + std::string(kv.key());
    }
    json::object inst;
    inst["type"] = "string";
    inst["enum"] = std::move(names);
    std::string who = plugin_display_name.empty() ? std::string("this plugin") : std::string(plugin_display_name);
    inst["description"] = "Which configured instance of " + who + " to use (" + listed + ").";
    props["instance"] = std::move(inst);
    json::array& required = out["required"].is_array() ? out["required"].get_array() : out["required"].emplace_array();
    bool present = false;
    for (auto& r : required) present = present || (r.is_string() && r.get_string() == "instance");
    if (!present) required.push_back("instance");
  }
  return out;
}

platform_arguments strip_platform_arguments(json::object& args) {
  platform_arguments out;
  if (auto* t = args.if_contains("tabId")) {
    if (t->is_int64() && t->get_int64() > 0) out.tab_id = t->get_int64();
    else if (t->is_uint64() && t->get_uint64() <= static_cast<std::uint64_t>(INT64_MAX)) out.tab_id = static_cast<std::int64_t>(t->get_uint64());
    else if (t->is_double()) {
      double d = t->get_double();
      if (d >= 1 && d == std::floor(d) && d < 9007199254740992.0) out.tab_id = static_cast<std::int64_t>(d);
    }
    args.erase("tabId");
  }
  if (auto* i = args.if_contains("instance")) {
    if (i->is_string() && !i->get_string().empty()) out.instance = std::string(i->get_string());
    args.erase("instance");
  }
  return out;
}

}  // namespace opentabs::plugins
