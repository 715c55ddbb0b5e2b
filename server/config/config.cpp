#include "config/config.hpp"

#include "util/strings.hpp"

namespace opentabs::config {
namespace {

// A short rendering of a bad value for warnings: enough to find it, never a wall of text.
std::string preview(const json::value& v) {
  auto s = json::dump(v);
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return s;
}

// The object under `key`: nullptr when it is absent, or (with a warning) not an object.
const json::object* object_section(const json::object& root, std::string_view key, const fs::path& path,
                                   std::vector<std::string>& warnings) {
  const auto* v = json::find(root, key);
  if (!v) return nullptr;
  const auto* o = v->if_object();
  if (!o)
    warnings.push_back(quote_for_error(key) + " in " + path.string() + " must be an object, got " +
                       std::string(json::type_name(*v)) + "; ignoring it");
  return o;
}

std::vector<std::string> string_list(const json::object& root, std::string_view key, const fs::path& path,
                                     std::vector<std::string>& warnings) {
  std::vector<std::string> out;
  const auto* v = json::find(root, key);
  if (!v) return out;
  const auto* arr = v->if_array();
  if (!arr) {
    warnings.push_back(quote_for_error(key) + " in " + path.string() + " must be an array of strings, got " +
                       std::string(json::type_name(*v)) + "; ignoring it");
    return out;
  }
  for (std::size_t i = 0; i < arr->size(); ++i) {
    const auto& item = (*arr)[i];
    if (item.is_string() && !item.get_string().empty()) {
      out.emplace_back(item.get_string());
    } else {
      warnings.push_back("Dropped " + quote_for_error(key) + "[" + std::to_string(i) + "] in " + path.string() +
                         ": expected a non-empty string, got " + preview(item));
    }
  }
  return out;
}

std::optional<tools::permission> permission_value(const json::value& v) {
  if (!v.is_string()) return std::nullopt;
  return tools::parse_permission(std::string_view(v.get_string()));
}

std::string bad_permission_text(const json::value& v) {
  return preview(v) + " (expected \"off\", \"ask\" or \"auto\")";
}

std::map<std::string, plugin_permissions> parse_permissions(const json::object& root, const fs::path& path,
                                                            std::vector<std::string>& warnings) {
  std::map<std::string, plugin_permissions> out;
  const auto* perms = object_section(root, "permissions", path, warnings);
  if (!perms) return out;
  for (const auto& [plugin_key, entry_value] : *perms) {
    std::string plugin(plugin_key);
    const auto* entry = entry_value.if_object();
    if (!entry) {
      warnings.push_back("Dropped permissions for plugin " + quote_for_error(plugin) + " in " + path.string() +
                         ": expected an object, got " + std::string(json::type_name(entry_value)));
      continue;
    }
    plugin_permissions pp;
    if (const auto* p = json::find(*entry, "permission")) {
      if (auto level = permission_value(*p)) {
        pp.permission = *level;
      } else {
        warnings.push_back("Dropped invalid permission " + bad_permission_text(*p) + " for plugin " + quote_for_error(plugin) +
                           " in " + path.string());
      }
    }
    if (const auto* t = json::find(*entry, "tools")) {
      if (const auto* tool_map = t->if_object()) {
        for (const auto& [tool_key, level_value] : *tool_map) {
          if (auto level = permission_value(level_value)) {
            pp.tools[std::string(tool_key)] = *level;
          } else {
            warnings.push_back("Dropped invalid permission " + bad_permission_text(level_value) + " for tool " +
                               quote_for_error(std::string(tool_key)) + " of plugin " + quote_for_error(plugin) + " in " +
                               path.string());
          }
        }
      } else {
        warnings.push_back("Dropped \"tools\" of plugin " + quote_for_error(plugin) + " in " + path.string() +
                           ": expected an object, got " + std::string(json::type_name(*t)));
      }
    }
    if (const auto* r = json::find(*entry, "reviewedVersion")) {
      if (r->is_string() && !r->get_string().empty()) {
        pp.reviewed_version = std::string(r->get_string());
      } else {
        warnings.push_back("Dropped invalid reviewedVersion " + preview(*r) + " for plugin " + quote_for_error(plugin) +
                           " in " + path.string());
      }
    }
    out[plugin] = std::move(pp);
  }
  return out;
}

std::map<std::string, json::object> parse_settings(const json::object& root, const fs::path& path,
                                                   std::vector<std::string>& warnings) {
  std::map<std::string, json::object> out;
  const auto* settings = object_section(root, "settings", path, warnings);
  if (!settings) return out;
  for (const auto& [plugin, values] : *settings) {
    if (const auto* o = values.if_object()) {
      out[std::string(plugin)] = *o;
    } else {
      warnings.push_back("Dropped settings for plugin " + quote_for_error(std::string(plugin)) + " in " + path.string() +
                         ": expected an object, got " + std::string(json::type_name(values)));
    }
  }
  return out;
}

}  // namespace

std::string_view to_string(tool_name_style s) {
  return s == tool_name_style::double_underscore ? "double-underscore" : "single-underscore";
}

std::optional<tool_name_style> parse_tool_name_style(std::string_view text) {
  if (text == "single-underscore") return tool_name_style::single_underscore;
  if (text == "double-underscore") return tool_name_style::double_underscore;
  return std::nullopt;
}

const std::vector<std::string>& server_known_keys() {
  // "port" (written by `opentabs config set port`) and "telemetry" are read below too.
  static const std::vector<std::string> keys = {"version",  "localPlugins", "localPluginDirs",
                                                "permissions", "settings",  "additionalAllowedDirectories",
                                                "updateCheckIntervalMinutes", "outputDirectory", "toolNames", "port",
                                                "telemetry", "hideDisabledTools", "browserToolGroups"};
  return keys;
}

json::object default_config_object() {
  json::object o;
  o["localPlugins"] = json::array();
  o["localPluginDirs"] = json::array();
  o["permissions"] = json::object();
  o["settings"] = json::object();
  o["additionalAllowedDirectories"] = json::array();
  o["version"] = kCurrentConfigVersion;
  o["updateCheckIntervalMinutes"] = kDefaultUpdateCheckIntervalMinutes;
  return o;
}

std::string format_config_text(const json::object& root) { return json::dump_pretty(json::value(root)); }

std::string default_config_text() { return format_config_text(default_config_object()); }

result<json::object> parse_config_text(std::string_view text, const fs::path& path) {
  auto parsed = json::parse(text, json::parse_limits{kMaxConfigBytes, 64});
  if (!parsed) {
    const auto& e = parsed.err();
    return with_context("Cannot load " + path.string() + ": ", e);
  }
  if (!parsed->is_object())
    return make_error(errc::invalid_request, "Cannot load " + path.string() + ": expected a JSON object at the top level, got " +
                                        std::string(json::type_name(*parsed)));
  return std::move(parsed->get_object());
}

int declared_version(const json::object& root) {
  auto v = json::get_int(root, "version");
  if (!v || *v < 1 || *v > 1'000'000) return 1;
  return static_cast<int>(*v);
}

namespace {

// A warning per key the server does not know, with the nearest known key when one is close.
void warn_unknown_keys(const json::object& root, const fs::path& path, std::vector<std::string>& warnings) {
  const auto& known = server_known_keys();
  for (const auto& kv : root) {
    std::string key(kv.key());
    bool is_known = false;
    for (const auto& k : known) is_known = is_known || k == key;
    if (is_known) continue;
    std::string w = "Unknown config key " + quote_for_error(key) + " in " + path.string();
    auto suggestion = closest_match(key, known, 3);
    if (!suggestion.empty()) w += ". Did you mean " + quote_for_error(suggestion) + "?";
    warnings.push_back(std::move(w));
  }
}

// Where outputs go and how tools are named and listed.
void read_listing_options(const json::object& root, const fs::path& path, config_file& c, std::vector<std::string>& warnings) {
  if (const auto* v = json::find(root, "outputDirectory")) {
    if (v->is_string() && !v->as_string().empty() && v->as_string().size() <= 4096) {
      c.output_directory = std::string(v->as_string());
    } else {
      warnings.push_back("\"outputDirectory\" in " + path.string() + " must be a non-empty path, got " + preview(*v) +
                         "; using the default output folder");
    }
  }
  if (const auto* v = json::find(root, "toolNames")) {
    auto style = v->is_string() ? parse_tool_name_style(v->as_string()) : std::nullopt;
    if (style) {
      c.tool_names = *style;
    } else {
      warnings.push_back("\"toolNames\" in " + path.string() + " must be \"single-underscore\" or \"double-underscore\", got " +
                         preview(*v) + "; using single-underscore (<plugin>_<tool>)");
    }
  }
  if (const auto* v = json::find(root, "hideDisabledTools")) {
    if (v->is_bool()) c.hide_disabled_tools = v->as_bool();
    else warnings.push_back("\"hideDisabledTools\" in " + path.string() + " must be true or false, got " + preview(*v) + "; listing disabled tools");
  }
  if (const auto* v = json::find(root, "browserToolGroups")) {
    if (!v->is_object()) {
      warnings.push_back("\"browserToolGroups\" in " + path.string() + " must be an object such as {\"Network\": \"off\"}, got " + preview(*v));
    } else {
      for (const auto& [group, level] : v->as_object()) {
        auto p = level.is_string() ? tools::parse_permission(level.as_string()) : std::nullopt;
        if (p) c.browser_tool_groups.emplace(std::string(group), *p);
        else warnings.push_back("\"browserToolGroups\"." + std::string(group) + " in " + path.string() + " must be \"off\", \"ask\" or \"auto\", got " + preview(level));
      }
    }
  }
}

// The update check, the port and telemetry.
void read_service_options(const json::object& root, const fs::path& path, config_file& c, std::vector<std::string>& warnings) {
  if (const auto* v = json::find(root, "updateCheckIntervalMinutes")) {
    auto n = json::get_int(root, "updateCheckIntervalMinutes");
    if (n && *n >= 0) {
      c.update_check_interval_minutes = *n;
    } else {
      warnings.push_back("\"updateCheckIntervalMinutes\" in " + path.string() +
                         " must be a non-negative integer, got " + preview(*v) + "; using " +
                         std::to_string(kDefaultUpdateCheckIntervalMinutes));
    }
  }
  if (const auto* v = json::find(root, "port")) {
    auto n = json::get_int(root, "port");
    if (n && *n >= 1 && *n <= 65535) {
      c.port = static_cast<int>(*n);
    } else {
      warnings.push_back("\"port\" in " + path.string() + " must be an integer from 1 to 65535, got " + preview(*v) +
                         "; ignoring it");
    }
  }
  if (const auto* v = json::find(root, "telemetry")) {
    if (v->is_bool()) {
      c.telemetry = v->get_bool();
    } else {
      warnings.push_back("\"telemetry\" in " + path.string() + " must be true or false, got " + preview(*v) +
                         "; ignoring it");
    }
  }
}

}  // namespace

config_file config_from_object(const json::object& root, const fs::path& path, std::vector<std::string>& warnings) {
  warn_unknown_keys(root, path, warnings);
  config_file c;
  c.version = declared_version(root);
  c.local_plugins = string_list(root, "localPlugins", path, warnings);
  c.local_plugin_dirs = string_list(root, "localPluginDirs", path, warnings);
  c.permissions = parse_permissions(root, path, warnings);
  c.settings = parse_settings(root, path, warnings);
  c.additional_allowed_directories = string_list(root, "additionalAllowedDirectories", path, warnings);

  read_listing_options(root, path, c, warnings);
  read_service_options(root, path, c, warnings);
  if (auto b = json::get_bool(root, "telemetryNoticeShown")) c.telemetry_notice_shown = *b;
  return c;
}

}  // namespace opentabs::config
