#include "plugins/discovery.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include "plugins/naming.hpp"
#include "plugins/plugin_files.hpp"
#include "util/files.hpp"

namespace opentabs::plugins {
namespace {

constexpr std::size_t max_dir_entries = 2000;

bool is_path_specifier(const std::string& s) {
  return s.rfind("./", 0) == 0 || s.rfind("../", 0) == 0 || s.rfind("/", 0) == 0 || s.rfind("~/", 0) == 0 ||
         s == "." || s == ".." || s == "~" ||
         (s.size() >= 3 && std::isalpha(static_cast<unsigned char>(s[0])) && s[1] == ':' && (s[2] == '\\' || s[2] == '/'));
}

// True when `child` equals or lies inside `root` (both canonical).
bool within(const fs::path& child, const fs::path& root) {
  auto c = child.begin(), r = root.begin();
  for (; r != root.end(); ++r, ++c) {
    if (r->empty()) continue;  // trailing separator
    if (c == child.end() || *c != *r) return false;
  }
  return true;
}

// The package.json of `dir` has an object "opentabs" field.
bool has_opentabs_field(const fs::path& dir) {
  std::error_code ec;
  fs::path real = fs::canonical(dir, ec);
  if (ec) return false;
  auto text = read_plugin_file(real, "package.json", max_package_json_bytes);
  if (!text) return false;
  auto v = json::parse_object(*text);
  return v && json::get_object(*v, "opentabs") != nullptr;
}

std::vector<fs::path> list_children(const fs::path& dir, std::string& error) {
  std::vector<fs::path> out;
  std::error_code ec;
  fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
  if (ec) {
    error = "cannot list " + dir.string() + ": " + ec.message();
    return out;
  }
  for (fs::directory_iterator end; it != end; it.increment(ec)) {
    if (ec) {
      error = "cannot list " + dir.string() + ": " + ec.message();
      break;
    }
    if (out.size() >= max_dir_entries) {
      error = dir.string() + " has more than " + std::to_string(max_dir_entries) + " entries; the rest were not scanned";
      break;
    }
    out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Node-style resolution of a package name from cwd: <dir>/node_modules/<name>, walking up.
std::optional<fs::path> resolve_package(const std::string& name, const fs::path& cwd) {
  if (name.empty() || name.find("..") != std::string::npos || name.find('\\') != std::string::npos) return std::nullopt;
  std::error_code ec;
  for (fs::path dir = cwd;; dir = dir.parent_path()) {
    fs::path candidate = dir / "node_modules" / name;
    if (fs::is_regular_file(candidate / "package.json", ec)) return candidate;
    if (dir == dir.parent_path() || dir.empty()) break;
  }
  return std::nullopt;
}

}  // namespace

bool npm_discovery_disabled_by_env() {
  const char* v = std::getenv("OPENTABS_SKIP_NPM_DISCOVERY");
  return v && std::string_view(v) == "1";
}

resolved_specifier resolve_specifier(const std::string& spec, const fs::path& home, const fs::path& config_dir) {
  resolved_specifier out;
  if (!is_path_specifier(spec)) {
    out.package = spec;
    return out;
  }
  fs::path p;
  if (spec == "~") p = home;
  else if (spec.rfind("~/", 0) == 0) p = home / spec.substr(2);
  else if (fs::path(spec).is_absolute()) p = spec;
  else p = config_dir / spec;
  out.path = p.lexically_normal();
  return out;
}

bool is_under_allowed_root(const fs::path& dir, const discovery_input& in) {
  std::error_code ec;
  fs::path real = fs::canonical(dir, ec);
  if (ec) return false;
  std::vector<fs::path> roots = {in.home, in.tmpdir, in.cwd};
  for (auto& extra : in.additional_allowed_directories) {
    auto r = resolve_specifier(extra, in.home, in.config_dir);
    roots.push_back(r.path ? *r.path : fs::path(extra));
  }
  for (auto& root : roots) {
    if (root.empty()) continue;
    fs::path real_root = fs::canonical(root, ec);
    if (ec) continue;
    if (within(real, real_root)) return true;
  }
  return false;
}

expanded_dirs expand_local_plugin_dirs(const discovery_input& in) {
  expanded_dirs out;
  for (auto& spec : in.local_plugin_dirs) {
    auto r = resolve_specifier(spec, in.home, in.config_dir);
    if (!r.path) {
      out.errors.push_back({spec, "localPluginDirs entries must be paths (./, ../, /, ~/)", "local"});
      continue;
    }
    std::error_code ec;
    if (!fs::is_directory(*r.path, ec)) {
      out.errors.push_back({spec, "directory " + r.path->string() + " does not exist", "local"});
      continue;
    }
    if (!is_under_allowed_root(*r.path, in)) {
      out.errors.push_back({spec, "directory " + r.path->string() +
                                      " is outside the allowed directories (home, temp dir, cwd, additionalAllowedDirectories)",
                            "local"});
      continue;
    }
    std::string error;
    for (auto& child : list_children(*r.path, error))
      if (fs::is_directory(child, ec) && has_opentabs_field(child)) out.plugin_dirs.push_back(child);
    if (!error.empty()) out.errors.push_back({spec, error, "local"});
  }
  return out;
}

namespace {

struct candidate {
  std::string specifier;
  fs::path dir;
  std::string source;
};

// 1. npm globals: opentabs-plugin-* and @scope/opentabs-plugin-* under the global root.
std::vector<candidate> npm_candidates(const discovery_input& in, discovery_result& out) {
  std::vector<candidate> npm;
  std::error_code root_ec;
  // A fresh npm prefix has no global node_modules yet: nothing installed, not an error.
  bool npm_root_exists = in.npm_global_root && fs::exists(*in.npm_global_root, root_ec);
  if (npm_root_exists && !in.npm_global_root->empty() && !npm_discovery_disabled_by_env()) {
    std::string error;
    for (auto& entry : list_children(*in.npm_global_root, error)) {
      std::string name = entry.filename().string();
      std::error_code ec;
      if (name.rfind("opentabs-plugin-", 0) == 0) {
        if (has_opentabs_field(entry)) npm.push_back({name, entry, "npm"});
      } else if (!name.empty() && name[0] == '@' && fs::is_directory(entry, ec)) {
        std::string scoped_error;
        for (auto& sub : list_children(entry, scoped_error)) {
          std::string sub_name = sub.filename().string();
          if (sub_name.rfind("opentabs-plugin-", 0) == 0 && has_opentabs_field(sub))
            npm.push_back({name + "/" + sub_name, sub, "npm"});
        }
        if (!scoped_error.empty()) out.errors.push_back({name, scoped_error, "npm"});
      }
    }
    if (!error.empty()) out.errors.push_back({in.npm_global_root->string(), error, "npm"});
  }
  return npm;
}

// 2. local: localPlugins, then localPluginDirs children, de-duplicated by realpath.
std::vector<candidate> local_candidates(const discovery_input& in, discovery_result& out) {
  std::vector<candidate> local;
  std::set<fs::path> seen_real;
  auto add_local = [&](const std::string& spec, const fs::path& dir) {
    std::error_code ec;
    if (!fs::exists(dir, ec)) {
      // As the original does, a path that is not there is skipped, not a failed plugin (a
      // plugin folder deleted or not built yet): in discoveryErrors, with the original's words.
      out.errors.push_back({spec, "Path not found: " + dir.string() + " — check that the directory exists in your config", "local", true});
      return;
    }
    fs::path real = fs::canonical(dir, ec);
    if (ec) {
      out.errors.push_back({spec, "plugin directory " + dir.string() + " cannot be resolved: " + ec.message(), "local"});
      return;
    }
    if (!is_under_allowed_root(real, in)) {
      out.errors.push_back({spec, "plugin directory " + real.string() +
                                      " is outside the allowed directories (home, temp dir, cwd, additionalAllowedDirectories)",
                            "local"});
      return;
    }
    if (!seen_real.insert(real).second) return;
    local.push_back({spec, real, "local"});
  };
  for (auto& spec : in.local_plugins) {
    auto r = resolve_specifier(spec, in.home, in.config_dir);
    if (r.path) {
      add_local(spec, *r.path);
    } else if (auto pkg = resolve_package(r.package, in.cwd)) {
      add_local(spec, *pkg);
    } else {
      out.errors.push_back({spec, "package \"" + spec.substr(0, 214) + "\" was not found in node_modules from " + in.cwd.string(),
                            "local"});
    }
  }
  auto expanded = expand_local_plugin_dirs(in);
  for (auto& e : expanded.errors) out.errors.push_back(std::move(e));
  for (auto& dir : expanded.plugin_dirs) add_local(dir.string(), dir);
  return local;
}

// 3. load, 4. merge (local wins over npm; within a source the first wins).  `by_name` maps
// each plugin name to its index in out.plugins across calls.
void load_candidates(const std::vector<candidate>& list, const discovery_input& in, discovery_result& out,
                     std::map<std::string, std::size_t>& by_name) {
  for (auto& c : list) {
    if (in.before_load) in.before_load(c.dir);
    auto p = in.load_one ? in.load_one(c.dir, c.source, in.load) : load_plugin(c.dir, c.source, in.load);
    if (!p) {
      out.errors.push_back({c.specifier, p.err().message, c.source});
      continue;
    }
    auto it = by_name.find(p->name);
    if (it == by_name.end()) {
      by_name[p->name] = out.plugins.size();
      out.plugins.push_back(std::move(*p));
    } else if (out.plugins[it->second].source == "npm" && c.source == "local") {
      out.warnings.push_back("local plugin \"" + p->name + "\" at " + c.dir.string() + " overrides the npm package");
      out.plugins[it->second] = std::move(*p);
    } else {
      out.errors.push_back({c.specifier,
                            "plugin name \"" + p->name + "\" is already provided by " +
                                out.plugins[it->second].source_path.string(),
                            c.source});
    }
  }
}

}  // namespace

discovery_result discover(const discovery_input& in) {
  discovery_result out;
  auto npm = npm_candidates(in, out);
  auto local = local_candidates(in, out);
  std::map<std::string, std::size_t> by_name;
  load_candidates(npm, in, out, by_name);
  load_candidates(local, in, out, by_name);
  refuse_tool_name_clashes(out, in.builtin_tool_names);
  return out;
}

void refuse_tool_name_clashes(discovery_result& found, const std::vector<std::string>& builtin_tool_names) {
  std::map<std::string, std::string> owner;  // MCP tool name → who publishes it
  for (const auto& n : builtin_tool_names) owner.emplace(n, "a built-in tool");
  std::vector<loaded_plugin> kept;
  kept.reserve(found.plugins.size());
  for (auto& p : found.plugins) {
    std::vector<std::string> names;
    for (const auto& t : p.tools) {
      names.push_back(canonical_tool_name(p.name, t.name));
      names.push_back(p.name + "__" + t.name);  // the spelling lookups also accept
    }
    std::string clash;
    for (const auto& n : names) {
      if (auto it = owner.find(n); it != owner.end()) {
        clash = "its tool name \"" + n + "\" is already taken by " + it->second;
        break;
      }
    }
    if (!clash.empty()) {
      found.errors.push_back({p.source_path.string(), "plugin \"" + p.name + "\" was not loaded: " + clash +
                                                          " (two tools cannot share a name; rename the plugin or the tool)",
                              p.source});
      continue;
    }
    for (const auto& n : names) owner.emplace(n, "plugin \"" + p.name + "\" (" + p.source_path.string() + ")");
    kept.push_back(std::move(p));
  }
  found.plugins = std::move(kept);
}

}  // namespace opentabs::plugins
