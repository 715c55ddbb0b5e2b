#include "plugins/naming.hpp"

namespace opentabs::plugins {

bool is_valid_plugin_name(std::string_view n) noexcept {
  if (n.empty() || n.size() > 64) return false;
  bool prev_dash = true;  // no leading dash
  for (char c : n) {
    bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (c == '-') {
      if (prev_dash) return false;
      prev_dash = true;
    } else if (alnum) {
      prev_dash = false;
    } else {
      return false;
    }
  }
  return !prev_dash;
}

const std::vector<std::string>& reserved_plugin_names() {
  // The prefixes of the server's own tool names (browser_*, extension_*, plugin_*,
  // opentabs_* and the tools pages publish, webmcp_*) plus names kept for the future.  A
  // plugin's tools are named <plugin>_<tool>, so a plugin with one of these names would
  // publish tools that shadow or duplicate built-in ones.
  static const std::vector<std::string> names = {"system", "browser", "opentabs", "extension", "config",
                                                 "plugin", "tool",    "mcp",      "webmcp"};
  return names;
}

bool is_reserved_plugin_name(std::string_view n) noexcept {
  for (auto& r : reserved_plugin_names())
    if (r == n) return true;
  return false;
}

result<std::string> plugin_name_from_package(std::string_view pkg) {
  auto fail = [&](const std::string& why) {
    return make_error(errc::invalid_params, "package name \"" + std::string(pkg.substr(0, 214)) + "\" " + why);
  };
  std::string name;
  if (!pkg.empty() && pkg[0] == '@') {
    auto slash = pkg.find('/');
    if (slash == std::string_view::npos || slash == 1) return fail("is not a valid scoped package name");
    std::string_view scope = pkg.substr(1, slash - 1);
    std::string_view rest = pkg.substr(slash + 1);
    if (rest.substr(0, package_prefix.size()) != package_prefix)
      return fail("must be @<scope>/opentabs-plugin-<name>");
    std::string_view base = rest.substr(package_prefix.size());
    name = scope == "opentabs-dev" ? std::string(base) : std::string(scope) + "-" + std::string(base);
  } else {
    if (pkg.substr(0, package_prefix.size()) != package_prefix)
      return fail("must be opentabs-plugin-<name> or @<scope>/opentabs-plugin-<name>");
    name = std::string(pkg.substr(package_prefix.size()));
  }
  if (!is_valid_plugin_name(name))
    return fail("gives plugin name \"" + name + "\", which must match ^[a-z0-9]+(-[a-z0-9]+)*$ (at most 64 characters)");
  if (is_reserved_plugin_name(name)) {
    std::string list;
    for (const auto& r : reserved_plugin_names()) list += (list.empty() ? "" : ", ") + r;
    return fail("gives plugin name \"" + name + "\", which is reserved: the server's own tools use the prefix \"" + name +
                "_\", so this plugin's tools would clash with them (reserved names: " + list + "); rename the package");
  }
  return name;
}

bool is_valid_tool_base_name(std::string_view n) noexcept {
  if (n.empty() || n.size() > 64) return false;
  for (std::size_t i = 0; i < n.size(); ++i) {
    char c = n[i];
    bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!alnum && (i == 0 || (c != '_' && c != '-'))) return false;
  }
  return true;
}

std::string canonical_tool_name(std::string_view plugin, std::string_view tool) {
  return std::string(plugin) + "_" + std::string(tool);
}

std::vector<tool_name_parts> tool_name_readings(std::string_view name) {
  std::vector<tool_name_parts> out;
  auto us = name.find('_');
  if (us == std::string_view::npos || us == 0) return out;
  std::string plugin(name.substr(0, us));
  if (!is_valid_plugin_name(plugin)) return out;
  std::string_view rest = name.substr(us + 1);
  if (!rest.empty() && rest[0] == '_' && rest.size() > 1) out.push_back({plugin, std::string(rest.substr(1))});
  if (!rest.empty()) out.push_back({plugin, std::string(rest)});
  return out;
}

}  // namespace opentabs::plugins
