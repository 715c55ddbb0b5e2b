#include "config/config_migrations.hpp"

#include "config/config.hpp"
#include "util/strings.hpp"

namespace opentabs::config {

void migrate_v1_to_v2(json::object& root) {
  auto* settings = json::get_object(root, "settings");
  if (!settings) return;
  for (auto& plugin : *settings) {
    auto* values = plugin.value().if_object();
    if (!values) continue;
    for (auto& kv : *values) {
      const auto* s = kv.value().if_string();
      if (!s) continue;
      std::string_view text(*s);
      if (!starts_with(text, "http://") && !starts_with(text, "https://")) continue;
      json::object instances;
      instances["default"] = json::str(text);
      kv.value() = std::move(instances);
    }
  }
}

std::string contract_home(const std::string& path, const fs::path& home) {
  if (path.empty() || path[0] != '/' || home.empty()) return path;
  auto h = home.lexically_normal().string();
  while (h.size() > 1 && h.back() == '/') h.pop_back();
  if (h == "/") return path;  // everything is "under" /; contracting would be meaningless
  auto p = fs::path(path).lexically_normal().string();
  if (p.size() > h.size() + 1 && starts_with(p, h) && p[h.size()] == '/') return "~/" + p.substr(h.size() + 1);
  return path;
}

std::string expand_home(const std::string& path, const fs::path& home) {
  if (path == "~") return home.string();
  if (starts_with(path, "~/")) return (home / path.substr(2)).lexically_normal().string();
  return path;
}

void migrate_v2_to_v3(json::object& root, const fs::path& home) {
  auto* v = root.if_contains("localPlugins");
  if (!v || !v->is_array()) return;
  for (auto& item : v->get_array()) {
    if (!item.is_string()) continue;
    std::string before(item.get_string());
    auto after = contract_home(before, home);
    if (after != before) item = json::str(after);
  }
}

migration_outcome migrate(json::object& root, const fs::path& home, const fs::path& path) {
  migration_outcome out;
  out.from_version = declared_version(root);
  out.to_version = out.from_version;
  if (out.from_version > kCurrentConfigVersion) {
    out.messages.push_back("Config version " + std::to_string(out.from_version) + " in " + path.string() +
                           " is newer than supported version " + std::to_string(kCurrentConfigVersion) +
                           "; loading as-is");
    return out;
  }
  if (out.from_version == kCurrentConfigVersion) return out;
  for (int v = out.from_version + 1; v <= kCurrentConfigVersion; ++v) {
    if (v == 2) migrate_v1_to_v2(root);
    if (v == 3) migrate_v2_to_v3(root, home);
    out.messages.push_back("Config " + path.string() + " migrated from v" + std::to_string(v - 1) + " to v" +
                           std::to_string(v));
  }
  root["version"] = kCurrentConfigVersion;
  out.to_version = kCurrentConfigVersion;
  out.migrated = true;
  return out;
}

}  // namespace opentabs::config
