#include "plugins/settings.hpp"

#include <cmath>

#include "plugins/url_pattern.hpp"

namespace opentabs::plugins {
namespace {

constexpr std::size_t max_fields = 100;
constexpr std::size_t max_instances = 50;
constexpr std::size_t max_string_value = 4096;

bool has_value(const config_field& f, const json::value& v) {
  if (f.type == "url") {
    if (!v.is_object()) return false;
    for (auto& kv : v.get_object())
      if (kv.value().is_string() && parse_http_url(kv.value().get_string())) return true;
    return false;
  }
  if (f.type == "string") return v.is_string() && !v.get_string().empty();
  if (f.type == "number") return v.is_number() && std::isfinite(v.to_number<double>());
  if (f.type == "boolean") return v.is_bool();
  if (f.type == "select") {
    if (!v.is_string()) return false;
    for (auto& o : f.options)
      if (o == v.get_string()) return true;
  }
  return false;
}

}  // namespace

result<std::vector<config_field>> parse_config_schema(const json::object& schema) {
  std::vector<config_field> out;
  auto fail = [](const std::string& key, const std::string& why) {
    return make_error(errc::invalid_params, "configSchema." + key + ": " + why);
  };
  if (schema.size() > max_fields) return make_error(errc::invalid_params, "configSchema has more than 100 fields");
  for (auto& kv : schema) {
    std::string key(kv.key());
    if (key.empty() || key.size() > 64) return fail(key, "keys must be 1..64 characters");
    if (!kv.value().is_object()) return fail(key, "must be an object");
    auto& o = kv.value().get_object();
    config_field f;
    f.key = key;
    auto* type = json::get_string(o, "type");
    if (!type) return fail(key, "needs a \"type\"");
    f.type = std::string(*type);
    if (f.type != "url" && f.type != "string" && f.type != "number" && f.type != "boolean" && f.type != "select")
      return fail(key, "type \"" + f.type + "\" is not one of url, string, number, boolean, select");
    auto* label = json::get_string(o, "label");
    if (!label) return fail(key, "needs a string \"label\"");
    f.label = std::string(*label);
    if (auto* d = json::get_string(o, "description")) f.description = std::string(*d);
    if (auto* p = json::get_string(o, "placeholder")) f.placeholder = std::string(*p);
    if (auto* r = json::find(o, "required")) {
      if (!r->is_bool()) return fail(key, "\"required\" must be a boolean");
      f.required = r->get_bool();
    }
    if (auto* opts = json::find(o, "options")) {
      if (!opts->is_array()) return fail(key, "\"options\" must be an array of strings");
      for (auto& x : opts->get_array()) {
        if (!x.is_string()) return fail(key, "\"options\" must be an array of strings");
        f.options.emplace_back(x.get_string());
      }
    }
    if (f.type == "select" && f.options.empty()) return fail(key, "a select needs a non-empty \"options\" array");
    out.push_back(std::move(f));
  }
  return out;
}

bool has_required_url_field(const std::vector<config_field>& fields) {
  for (auto& f : fields)
    if (f.required && f.type == "url") return true;
  return false;
}

resolved_settings resolve_settings(const std::vector<config_field>& fields,
                                   const std::vector<std::string>& static_patterns,
                                   std::string_view static_homepage, const json::object* user) {
  resolved_settings out;
  out.url_patterns = static_patterns;
  out.homepage = std::string(static_homepage);
  if (!user) return out;
  auto add_pattern = [&](const std::string& p) {
    for (auto& x : out.url_patterns)
      if (x == p) return;
    out.url_patterns.push_back(p);
  };
  for (auto& f : fields) {
    auto* v = user->if_contains(f.key);
    if (!v || v->is_null()) continue;
    if (f.type == "url") {
      if (!v->is_object()) {
        out.warnings.push_back("setting \"" + f.key + "\" skipped: a url setting must be an {instance: url} object");
        continue;
      }
      json::object kept;
      for (auto& kv : v->get_object()) {
        std::string instance(kv.key());
        auto pattern = kv.value().is_string() ? derived_pattern(kv.value().get_string()) : std::nullopt;
        if (instance.empty() || !pattern) {
          out.warnings.push_back("setting \"" + f.key + "\" instance \"" + instance + "\" skipped: not an http(s) URL");
          continue;
        }
        add_pattern(*pattern);
        if (out.homepage.empty()) out.homepage = std::string(kv.value().get_string());
        out.instance_map[instance] = *pattern;
        kept[instance] = kv.value();
      }
      if (!kept.empty()) out.values[f.key] = std::move(kept);
    } else if (has_value(f, *v) || (f.type == "string" && v->is_string())) {
      out.values[f.key] = *v;
    } else {
      out.warnings.push_back("setting \"" + f.key + "\" skipped: not a valid " + f.type + " value");
    }
  }
  return out;
}

result<json::object> validate_settings(const std::vector<config_field>& fields, const json::object& settings) {
  auto fail = [](const std::string& key, const std::string& why) {
    return make_error(errc::invalid_params, "Settings validation failed: " + key + ": " + why);
  };
  json::object out;
  for (auto& kv : settings) {
    std::string key(kv.key());
    const config_field* f = nullptr;
    for (auto& x : fields)
      if (x.key == key) f = &x;
    if (!f) return fail(key.substr(0, 64), "unknown setting (known: " + [&] {
      std::string names;
      for (auto& x : fields) names += (names.empty() ? "" : ", ") + x.key;
      return names.empty() ? std::string("none") : names;
    }() + ")");
    const json::value& v = kv.value();
    if (v.is_null()) {
      out[key] = nullptr;
      continue;
    }
    if (f->type == "url") {
      json::object map;
      if (v.is_string()) map["default"] = v;
      else if (v.is_object()) map = v.get_object();
      else return fail(key, "must be an object mapping instance names to URLs");
      if (map.empty()) return fail(key, "must name at least one instance");
      if (map.size() > max_instances) return fail(key, "has more than 50 instances");
      for (auto& inst : map) {
        std::string name(inst.key());
        if (name.empty() || name.size() > 64) return fail(key, "instance names must be 1..64 characters");
        if (!inst.value().is_string() || inst.value().get_string().size() > 2048 || !parse_http_url(inst.value().get_string()))
          return fail(key, "instance \"" + name + "\" must be an http or https URL");
      }
      out[key] = std::move(map);
    } else if (f->type == "string") {
      if (!v.is_string()) return fail(key, "must be a string");
      if (v.get_string().size() > max_string_value) return fail(key, "must be at most 4096 characters");
      out[key] = v;
    } else if (f->type == "number") {
      if (!v.is_number() || !std::isfinite(v.to_number<double>())) return fail(key, "must be a finite number");
      out[key] = v;
    } else if (f->type == "boolean") {
      if (!v.is_bool()) return fail(key, "must be a boolean");
      out[key] = v;
    } else {  // select
      if (!has_value(*f, v)) {
        std::string opts;
        for (auto& o : f->options) opts += (opts.empty() ? "" : ", ") + o;
        return fail(key, "must be one of: " + opts);
      }
      out[key] = v;
    }
  }
  return out;
}

bool needs_setup(const std::vector<config_field>& fields, const json::object* user) {
  for (auto& f : fields) {
    if (!f.required) continue;
    auto* v = user ? user->if_contains(f.key) : nullptr;
    if (!v || !has_value(f, *v)) return true;
  }
  return false;
}

}  // namespace opentabs::plugins
