#include "plugins/payload.hpp"

namespace opentabs::plugins {
namespace {

json::array string_array(const std::vector<std::string>& v) {
  json::array a;
  for (auto& s : v) a.push_back(json::str(s));
  return a;
}

void put_if(json::object& o, std::string_view key, const std::string& v) {
  if (!v.empty()) o[key] = v;
}

json::object update_object(const update_info& u) {
  json::object o;
  o["latestVersion"] = u.latest_version;
  o["updateCommand"] = u.update_command;
  return o;
}

// The keys core, SyncPlugin and config state share after `tools`.
void put_tail(json::object& o, const plugin& p, const std::optional<update_info>& update) {
  if (p.loaded.sdk_version) o["sdkVersion"] = *p.loaded.sdk_version;
  if (update) o["update"] = update_object(*update);
  if (p.loaded.config_schema) o["configSchema"] = *p.loaded.config_schema;
  if (!p.settings.values.empty()) o["resolvedSettings"] = p.settings.values;
}

}  // namespace

tools::permission permission_state::configured(std::string_view tool) const {
  auto it = tools.find(tool);
  return it != tools.end() ? it->second : plugin;
}

json::object core_plugin_payload(const plugin& p, const permission_state& perms) {
  const loaded_plugin& l = p.loaded;
  json::object o;
  o["name"] = l.name;
  o["version"] = l.version;
  o["displayName"] = l.display_name;
  o["urlPatterns"] = string_array(p.settings.url_patterns);
  if (!l.exclude_patterns.empty()) o["excludePatterns"] = string_array(l.exclude_patterns);
  put_if(o, "homepage", p.settings.homepage);
  put_if(o, "npmPackageName", l.package_name);
  o["permission"] = tools::to_string(perms.plugin);
  o["reviewed"] = perms.reviewed;
  put_if(o, "iconSvg", l.icon_svg);
  put_if(o, "iconInactiveSvg", l.icon_inactive_svg);
  put_if(o, "iconDarkSvg", l.icon_dark_svg);
  put_if(o, "iconDarkInactiveSvg", l.icon_dark_inactive_svg);
  if (!p.settings.instance_map.empty()) o["instanceMap"] = p.settings.instance_map;
  o["hasPreScript"] = l.pre_script.has_value();
  json::array tools;
  for (auto& t : l.tools) {
    json::object to;
    to["name"] = t.name;
    to["displayName"] = t.display_name;
    to["description"] = t.description;
    put_if(to, "summary", t.summary);
    to["icon"] = t.icon.empty() ? std::string("wrench") : t.icon;
    put_if(to, "iconSvg", t.icon_svg);
    put_if(to, "iconInactiveSvg", t.icon_inactive_svg);
    put_if(to, "group", t.group);
    to["permission"] = tools::to_string(perms.configured(t.name));
    tools.push_back(std::move(to));
  }
  o["tools"] = std::move(tools);
  return o;
}

json::object sync_plugin_payload(const plugin& p, const permission_state& perms, const std::optional<update_info>& update) {
  json::object o = core_plugin_payload(p, perms);
  o["sourcePath"] = p.loaded.source_path.string();
  put_if(o, "adapterHash", p.loaded.adapter_hash);
  o["adapterFile"] = p.files.adapter_file;
  o["source"] = p.loaded.source;
  put_tail(o, p, update);
  put_if(o, "preScriptFile", p.files.pre_script_file);
  if (p.loaded.pre_script) put_if(o, "preScriptHash", p.loaded.pre_script_hash);
  return o;
}

json::object config_state_plugin_payload(const plugin& p, const permission_state& perms, std::string_view tab_state,
                                         const std::optional<update_info>& update) {
  json::object o = core_plugin_payload(p, perms);
  o["source"] = p.loaded.source;
  o["tabState"] = json::str(tab_state);
  put_tail(o, p, update);
  return o;
}

}  // namespace opentabs::plugins
