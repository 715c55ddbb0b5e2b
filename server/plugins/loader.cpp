#include "plugins/loader.hpp"

#include <set>

#include "plugins/naming.hpp"
#include "plugins/plugin_failure.hpp"
#include "plugins/plugin_files.hpp"
#include "plugins/url_pattern.hpp"
#include "schema/translate.hpp"
#include "util/files.hpp"
#include "util/sha256.hpp"

namespace opentabs::plugins {
namespace {

error load_error(std::string_view file, const std::string& what) {
  return make_error(errc::invalid_params, std::string(file) + ": " + what);
}

// The loader's message for a failed read of `rel` (at most `max` bytes).
error part_error(std::string_view rel, const error& e, std::size_t max) {
  if (e.is(errc::not_found)) return load_error(rel, "missing");
  if (e.is(errc::too_large)) return load_error(rel, "larger than " + std::to_string(max) + " bytes");
  if (e.is(plugin_failure::unsafe_file)) return load_error(rel, e.message.substr(rel.size() + 1));
  return load_error(rel, "cannot be read (" + e.message + ")");
}

// Reads `rel` under `dir`, mapping util errors to loader messages.
result<std::string> read_part(const fs::path& dir, std::string_view rel, std::size_t max) {
  auto r = read_plugin_file(dir, rel, max);
  if (r) return r;
  return part_error(rel, r.err(), max);
}

result<json::value> parse_part(std::string_view rel, std::string_view text, std::size_t max) {
  json::parse_limits lim;
  lim.max_bytes = max;
  lim.max_depth = 128;
  auto v = json::parse(text, lim);
  if (!v) return load_error(rel, "is not valid JSON (" + v.err().message + ")");
  return v;
}

std::size_t utf16_length(std::string_view s) {
  // JavaScript's String.length: UTF-16 code units (astral characters count 2).
  std::size_t n = 0;
  for (unsigned char c : s) {
    if ((c & 0xC0) == 0x80) continue;
    n += (c >= 0xF0) ? 2 : 1;
  }
  return n;
}

bool is_hex64(std::string_view s) {
  if (s.size() != 64) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

std::optional<std::pair<int, int>> major_minor(std::string_view v) {
  int parts[2] = {0, 0};
  std::size_t i = 0;
  for (int p = 0; p < 2; ++p) {
    std::size_t start = i;
    while (i < v.size() && v[i] >= '0' && v[i] <= '9' && i - start < 6) parts[p] = parts[p] * 10 + (v[i++] - '0');
    if (i == start) return std::nullopt;
    if (p == 0) {
      if (i >= v.size() || v[i] != '.') return std::nullopt;
      ++i;
    }
  }
  return std::make_pair(parts[0], parts[1]);
}

// A string field of `o` (missing → empty); error when present with another type.
result<std::string> optional_string(const json::object& o, std::string_view key, std::string_view where) {
  auto* v = json::find(o, key);
  if (!v || v->is_null()) return std::string();
  if (!v->is_string()) return load_error(where, "\"" + std::string(key) + "\" must be a string");
  return std::string(v->get_string());
}

result<std::vector<std::string>> pattern_list(const json::object& o, std::string_view key) {
  std::vector<std::string> out;
  auto* v = json::find(o, key);
  if (!v) return out;
  if (!v->is_array()) return load_error("package.json", "opentabs." + std::string(key) + " must be an array of strings");
  if (v->get_array().size() > 100) return load_error("package.json", "opentabs." + std::string(key) + " has more than 100 patterns");
  for (auto& p : v->get_array()) {
    if (!p.is_string()) return load_error("package.json", "opentabs." + std::string(key) + " must be an array of strings");
    if (auto s = validate_url_pattern(p.get_string()); !s)
      return load_error("package.json", "opentabs." + std::string(key) + ": " + s.err().message);
    out.emplace_back(p.get_string());
  }
  return out;
}

status load_tools(const json::array& tools, loaded_plugin& p, const load_options& opt) {
  constexpr std::string_view file = "dist/tools.json";
  if (tools.size() > max_tools_per_plugin)
    return load_error(file, "has more than " + std::to_string(max_tools_per_plugin) + " tools");
  std::set<std::string> seen;
  for (std::size_t i = 0; i < tools.size(); ++i) {
    std::string at = "tools[" + std::to_string(i) + "]";
    if (!tools[i].is_object()) return load_error(file, at + " must be an object");
    auto& o = tools[i].get_object();
    plugin_tool t;
    auto* name = json::get_string(o, "name");
    if (!name) return load_error(file, at + ".name must be a string");
    t.name = std::string(*name);
    at = "tool \"" + t.name.substr(0, 64) + "\"";
    if (!is_valid_tool_base_name(t.name))
      return load_error(file, at + ": name must match [A-Za-z0-9][A-Za-z0-9_-]* (at most 64 characters)");
    if (!seen.insert(t.name).second) return load_error(file, at + " is defined twice");
    auto* desc = json::get_string(o, "description");
    if (!desc) return load_error(file, at + ": description must be a string");
    t.description = std::string(*desc);
    if (utf16_length(t.description) > max_tool_description_chars)
      return load_error(file, at + ": description is longer than 1000 characters");
    for (auto [key, dst] : {std::pair{"displayName", &t.display_name}, {"summary", &t.summary}, {"icon", &t.icon},
                            {"group", &t.group}, {"iconSvg", &t.icon_svg}, {"iconInactiveSvg", &t.icon_inactive_svg}}) {
      auto s = optional_string(o, key, file);
      if (!s) return load_error(file, at + ": " + std::string(key) + " must be a string");
      *dst = std::move(*s);
    }
    if (t.display_name.empty()) t.display_name = t.name;
    if (t.icon.empty()) t.icon = "wrench";
    auto* in = json::find(o, "input_schema");
    if (!in || !in->is_object()) return load_error(file, at + ": input_schema must be a JSON Schema object");
    t.input_schema = in->get_object();
    t.input_schema.erase("$schema");
    if (auto* out = json::find(o, "output_schema"); out && out->is_object()) t.output_schema = out->get_object();
    // Compiling waits for the tool's first call (most tools of a large set are never
    // called in a session); what is cheap to find is reported now.
    if (auto refused = schema::precheck(t.input_schema, opt.schema_limits)) {
      t.schema_error = refused->message;
      p.warnings.push_back(at + ": input_schema cannot be compiled, the tool cannot be called: " + t.schema_error);
      t.validator = std::make_shared<const schema::lazy_validator>(std::move(*refused));
    } else {
      t.validator = schema::compile_on_first_use(t.input_schema, opt.schema_limits);
    }
    for (auto& browser_tool : opt.browser_tool_names)
      if (!browser_tool.empty() && t.description.find(browser_tool) != std::string::npos) {
        p.warnings.push_back(at + ": description mentions browser tool \"" + browser_tool +
                             "\" (possible prompt injection)");
        break;
      }
    p.tools.push_back(std::move(t));
  }
  return ok();
}

}  // namespace

std::string extract_adapter_hash(std::string_view src) {
  constexpr std::string_view needle = ".__adapterHash=\"";
  std::size_t pos = 0;
  while ((pos = src.find(needle, pos)) != std::string_view::npos) {
    std::size_t start = pos + needle.size();
    if (start + 65 <= src.size() && src[start + 64] == '"' && is_hex64(src.substr(start, 64)))
      return std::string(src.substr(start, 64));
    pos = start;
  }
  return {};
}

std::optional<std::string> sdk_incompatibility(std::string_view plugin_sdk, std::string_view server_sdk) {
  auto p = major_minor(plugin_sdk);
  auto s = major_minor(server_sdk);
  if (!p || !s) return "Plugin SDK version \"" + std::string(plugin_sdk.substr(0, 64)) + "\" is not a version number";
  if (*p <= *s) return std::nullopt;
  return "Plugin built with SDK " + std::string(plugin_sdk) + ", server has SDK " + std::string(server_sdk) +
         ". Rebuild the plugin with SDK " + std::to_string(s->first) + "." + std::to_string(s->second) +
         ".x or update the server.";
}

namespace {

// package.json: the plugin's name, version and its `opentabs` section.
status read_package_json(const fs::path& canonical, loaded_plugin& p) {
  auto pkg_text = read_part(canonical, "package.json", max_package_json_bytes);
  if (!pkg_text) return pkg_text.err();
  auto pkg_v = parse_part("package.json", *pkg_text, max_package_json_bytes);
  if (!pkg_v) return pkg_v.err();
  if (!pkg_v->is_object()) return load_error("package.json", "must be a JSON object");
  auto& pkg = pkg_v->get_object();
  auto* pkg_name = json::get_string(pkg, "name");
  if (!pkg_name || pkg_name->empty()) return load_error("package.json", "\"name\" must be a non-empty string");
  p.package_name = std::string(*pkg_name);
  auto name = plugin_name_from_package(p.package_name);
  if (!name) return load_error("package.json", name.err().message);
  p.name = std::move(*name);
  auto* version = json::get_string(pkg, "version");
  if (!version || version->empty()) return load_error("package.json", "\"version\" must be a non-empty string");
  p.version = std::string(*version);
  auto* main = json::get_string(pkg, "main");
  if (!main || main->empty()) return load_error("package.json", "\"main\" must be a non-empty string");
  if (auto* a = json::find(pkg, "author")) {
    if (a->is_string()) p.author = std::string(a->get_string());
    else if (a->is_object())
      if (auto* an = json::get_string(a->get_object(), "name")) p.author = std::string(*an);
  }
  auto* ot = json::get_object(pkg, "opentabs");
  if (!ot) return load_error("package.json", "\"opentabs\" must be an object");
  auto* display = json::get_string(*ot, "displayName");
  if (!display || display->empty()) return load_error("package.json", "opentabs.displayName must be a non-empty string");
  p.display_name = std::string(*display);
  auto* description = json::get_string(*ot, "description");
  if (!description) return load_error("package.json", "opentabs.description must be a string");
  p.description = std::string(*description);
  auto urls = pattern_list(*ot, "urlPatterns");
  if (!urls) return urls.err();
  p.url_patterns = std::move(*urls);
  auto excludes = pattern_list(*ot, "excludePatterns");
  if (!excludes) return excludes.err();
  p.exclude_patterns = std::move(*excludes);
  auto homepage = optional_string(*ot, "homepage", "package.json");
  if (!homepage) return homepage.err();
  p.homepage = std::move(*homepage);
  for (auto [key, dst] : {std::pair{"iconSvg", &p.icon_svg}, {"iconDarkSvg", &p.icon_dark_svg}}) {
    auto s = optional_string(*ot, key, "package.json");
    if (!s) return s.err();
    *dst = std::move(*s);
  }
  return ok();
}

// dist/tools.json in its current form: SDK version, config schema, icons, pre-script, tools.
status read_tools_object(const json::object& tj, loaded_plugin& p, const load_options& opt, std::string& pre_script_file) {
  if (auto* sdk = json::find(tj, "sdkVersion"); sdk && !sdk->is_null()) {
    if (!sdk->is_string()) return load_error("dist/tools.json", "sdkVersion must be a string");
    p.sdk_version = std::string(sdk->get_string());
    if (auto why = sdk_incompatibility(*p.sdk_version, opt.server_sdk)) return load_error("dist/tools.json", *why);
  } else {
    p.warnings.push_back("dist/tools.json has no sdkVersion; SDK compatibility not checked");
  }
  if (auto* cs = json::find(tj, "configSchema"); cs && !cs->is_null()) {
    if (!cs->is_object()) return load_error("dist/tools.json", "configSchema must be an object");
    auto fields = parse_config_schema(cs->get_object());
    if (!fields) return load_error("dist/tools.json", fields.err().message);
    p.config_schema = cs->get_object();
    p.config_fields = std::move(*fields);
  }
  for (auto [key, dst] : {std::pair{"iconSvg", &p.icon_svg}, {"iconInactiveSvg", &p.icon_inactive_svg},
                          {"iconDarkSvg", &p.icon_dark_svg}, {"iconDarkInactiveSvg", &p.icon_dark_inactive_svg}}) {
    auto s = optional_string(tj, key, "dist/tools.json");
    if (!s) return s.err();
    if (!s->empty()) *dst = std::move(*s);
  }
  auto psf = optional_string(tj, "preScriptFile", "dist/tools.json");
  if (!psf) return psf.err();
  pre_script_file = std::move(*psf);
  auto psh = optional_string(tj, "preScriptHash", "dist/tools.json");
  if (!psh) return psh.err();
  p.pre_script_hash = std::move(*psh);
  auto* tools = json::get_array(tj, "tools");
  if (!tools) return load_error("dist/tools.json", "\"tools\" must be an array");
  if (auto s = load_tools(*tools, p, opt); !s) return s.err();
  return ok();
}

// dist/tools.json (an object, or a legacy bare array of tools); `pre_script_file` is the
// pre-script it names, if any.
status read_tools_json(const fs::path& canonical, loaded_plugin& p, const load_options& opt, std::string& pre_script_file) {
  auto tools_text = read_part(canonical, "dist/tools.json", max_tools_json_bytes);
  if (!tools_text) return tools_text.err();
  auto tools_v = parse_part("dist/tools.json", *tools_text, max_tools_json_bytes);
  if (!tools_v) return tools_v.err();
  p.tools_json_sha256 = sha256_hex(*tools_text);
  if (tools_v->is_array()) {
    p.warnings.push_back("dist/tools.json is a bare array (legacy format): no sdkVersion or configSchema");
    if (auto s = load_tools(tools_v->get_array(), p, opt); !s) return s.err();
  } else if (tools_v->is_object()) {
    if (auto s = read_tools_object(tools_v->get_object(), p, opt, pre_script_file); !s) return s.err();
  } else {
    return load_error("dist/tools.json", "must be an object (or a legacy array of tools)");
  }
  return ok();
}

// dist/adapter.iife.js, then the optional source map and pre-script.
status read_adapter_files(const fs::path& canonical, loaded_plugin& p, const std::string& pre_script_file) {
  // The original's words ("Adapter IIFE not found at ..."), which its tooling and the side
  // panel's failed-plugin card show.
  const auto adapter_path = (canonical / "dist" / "adapter.iife.js").string();
  auto adapter = read_plugin_file(canonical, "dist/adapter.iife.js", max_adapter_bytes);
  if (!adapter && adapter.err().is(errc::not_found)) return make_error(errc::invalid_params, "Adapter IIFE not found at " + adapter_path);
  if (!adapter) return part_error("dist/adapter.iife.js", adapter.err(), max_adapter_bytes);
  if (adapter->empty()) return make_error(errc::invalid_params, "Adapter IIFE at " + adapter_path + " is empty — rebuild the plugin");
  p.adapter_source = std::move(*adapter);
  p.adapter_hash = extract_adapter_hash(p.adapter_source);
  if (p.adapter_hash.empty()) p.warnings.push_back("dist/adapter.iife.js has no embedded __adapterHash");

  // Optional source map: a missing one is normal, an unreadable one only loses debugging.
  auto map = read_plugin_file(canonical, "dist/adapter.iife.js.map", max_source_map_bytes);
  if (map) p.source_map = std::move(*map);
  else if (!map.err().is(errc::not_found)) p.warnings.push_back("dist/adapter.iife.js.map ignored: " + map.err().message);

  // Optional pre-script; a missing file only disables it (§4.2).
  if (!pre_script_file.empty()) {
    bool plain = pre_script_file.find('/') == std::string::npos && pre_script_file.find('\\') == std::string::npos &&
                 pre_script_file != "." && pre_script_file != "..";
    if (!plain) return load_error("dist/tools.json", "preScriptFile must be a file name inside dist/");
    auto ps = read_plugin_file(canonical, "dist/" + pre_script_file, max_pre_script_bytes);
    if (ps && !ps->empty()) {
      p.pre_script = std::move(*ps);
      if (!is_hex64(p.pre_script_hash)) p.pre_script_hash = sha256_hex(*p.pre_script);
    } else {
      p.warnings.push_back("pre-script dist/" + pre_script_file + " disabled: " +
                           (ps ? std::string("file is empty") : ps.err().message));
      p.pre_script_hash.clear();
    }
  } else {
    p.pre_script_hash.clear();
  }
  return ok();
}

}  // namespace

result<loaded_plugin> load_plugin(const fs::path& dir, std::string_view source, const load_options& opt) {
  loaded_plugin p;
  p.source = std::string(source);
  std::error_code ec;
  fs::path canonical = fs::canonical(dir, ec);
  if (ec) return load_error(dir.string(), "plugin directory cannot be resolved (" + ec.message() + ")");
  if (!fs::is_directory(canonical, ec)) return load_error(dir.string(), "is not a directory");
  p.source_path = canonical;
  if (auto st = read_package_json(canonical, p); !st) return st.err();
  std::string pre_script_file;
  if (auto st = read_tools_json(canonical, p, opt, pre_script_file); !st) return st.err();
  if (p.url_patterns.empty() && !has_required_url_field(p.config_fields))
    return load_error("package.json", "opentabs.urlPatterns is empty and configSchema has no required url field");
  if (auto st = read_adapter_files(canonical, p, pre_script_file); !st) return st.err();
  return p;
}

}  // namespace opentabs::plugins
