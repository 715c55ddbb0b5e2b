#include "config/config_edits.hpp"

namespace opentabs::config {
namespace {

// The object under root[key], replacing a value of the wrong type (which the parser
// ignored anyway) so an edit can proceed.
json::object& section(json::object& root, std::string_view key) {
  auto& v = root[key];
  if (!v.is_object()) v = json::object();
  return v.get_object();
}

json::object* existing_object(json::object& parent, std::string_view key) {
  auto* v = parent.if_contains(key);
  return v ? v->if_object() : nullptr;
}

json::value permission_json(tools::permission p) { return json::str(tools::to_string(p)); }

bool set_if_different(json::object& o, std::string_view key, json::value v) {
  if (auto* cur = o.if_contains(key); cur && *cur == v) return false;
  o[key] = std::move(v);
  return true;
}

// Drops permissions.<plugin>.tools when empty and the plugin entry when empty.
void drop_empty(json::object& perms, std::string_view plugin) {
  auto* entry = existing_object(perms, plugin);
  if (!entry) return;
  if (auto* tools = existing_object(*entry, "tools"); tools && tools->empty()) entry->stable_erase("tools");
  if (entry->empty()) perms.stable_erase(plugin);
}

}  // namespace

bool set_tool_permission(json::object& root, std::string_view plugin, std::string_view tool, tools::permission level) {
  auto& entry = section(section(root, "permissions"), plugin);
  return set_if_different(section(entry, "tools"), tool, permission_json(level));
}

bool remove_tool_permission(json::object& root, std::string_view plugin, std::string_view tool) {
  auto* perms = existing_object(root, "permissions");
  if (!perms) return false;
  auto* entry = existing_object(*perms, plugin);
  if (!entry) return false;
  auto* tools = existing_object(*entry, "tools");
  if (!tools || !tools->contains(tool)) return false;
  tools->stable_erase(tool);
  drop_empty(*perms, plugin);
  return true;
}

bool set_plugin_permission(json::object& root, std::string_view plugin, const plugin_permission_change& change) {
  auto& entry = section(section(root, "permissions"), plugin);
  bool changed = set_if_different(entry, "permission", permission_json(change.level));
  if (change.reviewed_version) changed |= set_if_different(entry, "reviewedVersion", json::str(*change.reviewed_version));
  if (change.clear_tool_overrides && entry.contains("tools")) {
    entry.stable_erase("tools");
    changed = true;
  }
  return changed;
}

bool remove_plugin_permissions(json::object& root, std::string_view plugin) {
  auto* perms = existing_object(root, "permissions");
  if (!perms || !perms->contains(plugin)) return false;
  perms->stable_erase(plugin);
  return true;
}

bool set_plugin_settings(json::object& root, std::string_view plugin, const json::object& values) {
  if (values.empty()) {
    auto* settings = existing_object(root, "settings");
    if (!settings || !settings->contains(plugin)) return false;
    settings->stable_erase(plugin);
    return true;
  }
  return set_if_different(section(root, "settings"), plugin, json::value(values));
}

bool set_plugin_setting(json::object& root, std::string_view plugin, std::string_view key,
                        const std::optional<json::value>& value) {
  if (value) return set_if_different(section(section(root, "settings"), plugin), key, *value);
  auto* settings = existing_object(root, "settings");
  if (!settings) return false;
  auto* values = existing_object(*settings, plugin);
  if (!values || !values->contains(key)) return false;
  values->stable_erase(key);
  if (values->empty()) settings->stable_erase(plugin);
  return true;
}

bool add_to_string_list(json::object& root, std::string_view list_key, std::string_view entry) {
  auto& v = root[list_key];
  if (!v.is_array()) v = json::array();
  auto& arr = v.get_array();
  for (const auto& item : arr)
    if (item.is_string() && std::string_view(item.get_string()) == entry) return false;
  arr.push_back(json::str(entry));
  return true;
}

bool remove_from_string_list(json::object& root, std::string_view list_key, std::string_view entry) {
  auto* v = root.if_contains(list_key);
  if (!v || !v->is_array()) return false;
  auto& arr = v->get_array();
  bool changed = false;
  for (auto it = arr.begin(); it != arr.end();) {
    if (it->is_string() && std::string_view(it->get_string()) == entry) {
      it = arr.erase(it);
      changed = true;
    } else {
      ++it;
    }
  }
  return changed;
}

std::vector<std::string> prune_permissions(json::object& root, const prune_inputs& inputs) {
  std::vector<std::string> removed;
  auto* perms = existing_object(root, "permissions");
  if (!perms) return removed;
  std::vector<std::string> gone_plugins;
  for (auto& kv : *perms) {
    std::string plugin(kv.key());
    if (inputs.keep.count(plugin)) continue;
    auto known = inputs.tools_by_plugin.find(plugin);
    if (known == inputs.tools_by_plugin.end()) {
      // The browser entry is never pruned: the browser tools are always there, even when
      // the caller did not pass their names.
      if (plugin != "browser") gone_plugins.push_back(plugin);
      continue;
    }
    auto* entry = kv.value().if_object();
    if (!entry) continue;
    auto* tools = existing_object(*entry, "tools");
    if (!tools) continue;
    std::vector<std::string> gone_tools;
    for (const auto& t : *tools)
      if (!known->second.count(std::string(t.key()))) gone_tools.emplace_back(t.key());
    for (const auto& t : gone_tools) {
      tools->stable_erase(t);
      removed.push_back("Pruned permission override for missing tool \"" + t + "\" of plugin \"" + plugin + "\"");
    }
  }
  for (const auto& plugin : gone_plugins) {
    perms->stable_erase(plugin);
    removed.push_back("Pruned permissions of plugin \"" + plugin + "\", which is no longer installed");
  }
  for (const auto& [plugin, tools] : inputs.tools_by_plugin) {
    (void)tools;
    if (perms->contains(plugin)) drop_empty(*perms, plugin);
  }
  return removed;
}

std::vector<std::string> reset_stale_reviews(json::object& root,
                                             const std::map<std::string, std::string>& installed_versions) {
  std::vector<std::string> reset;
  auto* perms = existing_object(root, "permissions");
  if (!perms) return reset;
  for (auto& kv : *perms) {
    auto installed = installed_versions.find(std::string(kv.key()));
    if (installed == installed_versions.end()) continue;
    auto* entry = kv.value().if_object();
    if (!entry) continue;
    const auto* reviewed = json::get_string(*entry, "reviewedVersion");
    if (!reviewed || std::string_view(*reviewed) == installed->second) continue;
    json::object off;
    off["permission"] = permission_json(tools::permission::off);
    kv.value() = std::move(off);
    reset.emplace_back(kv.key());
  }
  return reset;
}

}  // namespace opentabs::config
