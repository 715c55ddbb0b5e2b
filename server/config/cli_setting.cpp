#include "config/cli_setting.hpp"

#include <cctype>
#include <vector>

#include "config/config.hpp"
#include "config/config_edits.hpp"
#include "config/config_migrations.hpp"
#include "tools/tool.hpp"
#include "util/strings.hpp"

namespace opentabs::config {
namespace {

constexpr std::string_view kToolPermission = "tool-permission.";
constexpr std::string_view kPluginPermission = "plugin-permission.";
constexpr std::string_view kSetting = "setting.";

// Longest name part we accept; real plugin, tool and setting names are far shorter.
constexpr std::size_t kMaxNameLength = 128;

error invalid_value(std::string message) { return make_error(errc::invalid_params, std::move(message)); }

// Plugin, tool and setting names: printable, no dots (the key separator), no spaces.
bool valid_name(std::string_view s) {
  if (s.empty() || s.size() > kMaxNameLength) return false;
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u == 0x7f || c == '.' || c == '"' || c == '\\') return false;
  }
  return true;
}

std::string shown(std::string_view s) {
  if (s.size() > 60) return "\"" + std::string(s.substr(0, 57)) + "...\"";
  return "\"" + std::string(s) + "\"";
}

result<tools::permission> permission_arg(std::string_view key, std::string_view value) {
  auto p = tools::parse_permission(value);
  if (!p) return invalid_value("Invalid permission " + shown(value) + " for " + std::string(key) + ": use off, ask or auto");
  return *p;
}

// "<plugin>.<rest>" after a key prefix.
result<std::pair<std::string, std::string>> split_plugin(std::string_view key, std::string_view rest,
                                                         std::string_view what) {
  auto dot = rest.find('.');
  if (dot == std::string_view::npos)
    return make_error(errc::invalid_params, "Key " + shown(key) + " needs the form " + std::string(what));
  auto plugin = rest.substr(0, dot);
  auto name = rest.substr(dot + 1);
  if (!valid_name(plugin)) return make_error(errc::invalid_params, "Invalid plugin name " + shown(plugin) + " in " + shown(key));
  if (!valid_name(name)) return make_error(errc::invalid_params, "Invalid name " + shown(name) + " in " + shown(key));
  return std::pair<std::string, std::string>(std::string(plugin), std::string(name));
}

// A setting value typed on the command line: JSON true/false, numbers and {"instance":"url"}
// maps keep their type; a JSON string literal is unquoted; anything else is a plain string.
result<json::value> setting_value(std::string_view key, std::string_view text) {
  auto parsed = json::parse(text, json::parse_limits{64 * 1024, 4});
  if (!parsed) return json::str(text);
  auto& v = *parsed;
  switch (v.kind()) {
    case json::kind::bool_:
    case json::kind::int64:
    case json::kind::uint64:
    case json::kind::double_:
    case json::kind::string: return std::move(v);
    case json::kind::object: {
      for (const auto& kv : v.get_object())
        if (!kv.value().is_string())
          return invalid_value("Invalid value for " + std::string(key) +
                               ": an object value must map instance names to URL strings");
      return std::move(v);
    }
    default:
      return invalid_value("Invalid value for " + std::string(key) +
                           ": use a string, number, true/false or {\"<instance>\": \"<url>\"}");
  }
}

std::string absolute_from_cli(std::string_view value, const cli_path_context& ctx) {
  std::string expanded = expand_home(std::string(value), ctx.home);
  fs::path p(expanded);
  if (p.is_relative()) p = ctx.cwd / p;
  auto s = p.lexically_normal().string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

std::string absolute_from_stored(const std::string& stored, const cli_path_context& ctx) {
  std::string expanded = expand_home(stored, ctx.home);
  fs::path p(expanded);
  if (p.is_relative()) p = ctx.config_dir / p;
  auto s = p.lexically_normal().string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

// The stored entry of `list_key` that names the same directory as `absolute`, if any.
std::optional<std::string> find_path_entry(const json::object& root, std::string_view list_key,
                                           const std::string& absolute, const cli_path_context& ctx) {
  const auto* arr = json::get_array(root, list_key);
  if (!arr) return std::nullopt;
  for (const auto& item : *arr) {
    if (!item.is_string()) continue;
    std::string stored(item.get_string());
    if (absolute_from_stored(stored, ctx) == absolute) return stored;
  }
  return std::nullopt;
}

result<std::string> add_path(json::object& root, std::string_view list_key, std::string_view value,
                             const cli_path_context& ctx, bool store_under_home_as_tilde) {
  auto absolute = absolute_from_cli(value, ctx);
  if (auto existing = find_path_entry(root, list_key, absolute, ctx))
    return "Already registered in " + std::string(list_key) + ": " + *existing;
  auto stored = store_under_home_as_tilde ? contract_home(absolute, ctx.home) : absolute;
  add_to_string_list(root, list_key, stored);
  return "Added to " + std::string(list_key) + ": " + stored;
}

result<std::string> remove_path(json::object& root, std::string_view list_key, std::string_view value,
                                const cli_path_context& ctx) {
  auto absolute = absolute_from_cli(value, ctx);
  auto existing = find_path_entry(root, list_key, absolute, ctx);
  if (!existing) return make_error(errc::not_found, "Path not found in " + std::string(list_key) + ": " + absolute);
  remove_from_string_list(root, list_key, *existing);
  return "Removed from " + std::string(list_key) + ": " + *existing;
}

const std::vector<std::string>& known_keys() {
  static const std::vector<std::string> keys = {
      std::string(kToolPermission), std::string(kPluginPermission), std::string(kSetting), "port", "toolNames",
      "localPlugins.add",           "localPlugins.remove",          "allowedDirectories.add", "allowedDirectories.remove"};
  return keys;
}

// "Did you mean ...?" for a mistyped key: prefix keys are compared on the part up to the
// first dot and the user's suffix is kept.
std::string suggest_key(std::string_view key) {
  std::string best;
  std::size_t best_distance = 4;
  for (const auto& known : known_keys()) {
    bool prefix = known.back() == '.';
    std::string_view part = key;
    if (prefix) {
      auto dot = key.find('.');
      part = dot == std::string_view::npos ? key : key.substr(0, dot + 1);
    }
    auto d = edit_distance(part, known);
    if (d < best_distance) {
      best_distance = d;
      best = known;
      if (prefix) {
        auto dot = key.find('.');
        if (dot != std::string_view::npos) best += std::string(key.substr(dot + 1));
      }
    }
  }
  return best;
}

}  // namespace

std::string cli_setting_help() {
  return "Supported keys:\n"
         "  tool-permission.<plugin>.<tool>  off | ask | auto (browser tools: tool-permission.browser.<browser_tool>)\n"
         "  plugin-permission.<plugin>       off | ask | auto (off removes the plugin's permissions)\n"
         "  setting.<plugin>.<key>           a value ('' removes the setting)\n"
         "  port                             1-65535\n"
         "  toolNames                        single-underscore (<plugin>_<tool>) | double-underscore (<plugin>__<tool>)\n"
         "  localPlugins.add|remove          a plugin directory\n"
         "  allowedDirectories.add|remove    an extra directory local plugins may live in";
}

result<std::string> apply_cli_setting(json::object& root, std::string_view key, std::string_view value,
                                      const cli_path_context& paths) {
  const std::string k(key);
  if (starts_with(key, kToolPermission)) {
    auto parts = split_plugin(key, key.substr(kToolPermission.size()), "tool-permission.<plugin>.<tool>");
    if (!parts) return parts.err();
    auto level = permission_arg(key, value);
    if (!level) return level.err();
    // An explicit "off" is stored as an override: removing the override instead would let
    // the tool inherit an "auto" plugin level, the opposite of what was asked.
    set_tool_permission(root, parts->first, parts->second, *level);
    return k + " = " + std::string(tools::to_string(*level));
  }
  if (starts_with(key, kPluginPermission)) {
    auto plugin = key.substr(kPluginPermission.size());
    if (!valid_name(plugin)) return make_error(errc::invalid_params, "Invalid plugin name " + shown(plugin) + " in " + shown(key));
    auto level = permission_arg(key, value);
    if (!level) return level.err();
    if (*level == tools::permission::off) {
      remove_plugin_permissions(root, plugin);
      return k + " = off (entry removed)";
    }
    // Keep per-tool overrides: a tool someone switched off on purpose stays off.
    set_plugin_permission(root, plugin, plugin_permission_change{*level, std::nullopt, false});
    return k + " = " + std::string(tools::to_string(*level));
  }
  if (starts_with(key, kSetting)) {
    auto parts = split_plugin(key, key.substr(kSetting.size()), "setting.<plugin>.<key>");
    if (!parts) return parts.err();
    if (value.empty()) {
      bool removed = set_plugin_setting(root, parts->first, parts->second, std::nullopt);
      return k + (removed ? " removed" : " was not set");
    }
    auto v = setting_value(key, value);
    if (!v) return v.err();
    set_plugin_setting(root, parts->first, parts->second, *v);
    return k + " = " + json::dump(*v);
  }
  if (key == "port") {
    bool digits = !value.empty() && value.size() <= 5;
    for (char c : value) digits = digits && std::isdigit(static_cast<unsigned char>(c));
    int port = digits ? std::stoi(std::string(value)) : 0;
    if (port < 1 || port > 65535) return invalid_value("Invalid port " + shown(value) + ": use an integer from 1 to 65535");
    root["port"] = port;
    return "port = " + std::to_string(port);
  }
  if (key == "toolNames") {
    auto style = parse_tool_name_style(value);
    if (!style)
      return invalid_value("Invalid toolNames " + shown(value) +
                           ": use single-underscore (<plugin>_<tool>) or double-underscore (<plugin>__<tool>)");
    root["toolNames"] = json::str(to_string(*style));
    return "toolNames = " + std::string(to_string(*style));
  }
  if (key == "localPlugins.add" || key == "localPlugins.remove" || key == "allowedDirectories.add" ||
      key == "allowedDirectories.remove") {
    if (value.empty()) return invalid_value("Missing path for " + k);
    bool local = starts_with(key, "localPlugins.");
    std::string_view list = local ? "localPlugins" : "additionalAllowedDirectories";
    if (key.ends_with(".add")) return add_path(root, list, value, paths, local);
    return remove_path(root, list, value, paths);
  }
  std::string message = "Unknown config key " + shown(key);
  if (auto s = suggest_key(key); !s.empty()) message += ". Did you mean " + shown(s) + "?";
  return make_error(errc::invalid_params, message + "\n" + cli_setting_help());
}

}  // namespace opentabs::config
