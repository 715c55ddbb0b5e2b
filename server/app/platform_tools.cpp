#include "app/platform_tools.hpp"

#include <algorithm>

#include "schema/lazy_validator.hpp"
#include "util/random.hpp"

namespace opentabs::app {

namespace {

const char* kGuidance =
    "Review this adapter before enabling it. It runs inside the user's logged-in pages with their session. "
    "Check that every tool only does what its name and description say; that network requests go only to the "
    "plugin's own site; that it does not read or send cookies, tokens, passwords or page content elsewhere; that "
    "it does not inject remote scripts or use eval on fetched text; and that the pre-script (if any) only records "
    "what the tools need. If anything is unclear, tell the user instead of enabling the plugin. To enable it, call "
    "plugin_mark_reviewed with the plugin name, this version, the reviewToken and permission \"ask\" (each call "
    "needs the user's approval) or \"auto\". The token is valid once, for 10 minutes.";

std::size_t count_lines(std::string_view s) {
  if (s.empty()) return 0;
  return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')) + (s.back() == '\n' ? 0 : 1);
}

// A tool's input schema twice: the lean one clients list (the listing goes into every
// agent's context) and the strict one calls are validated with, which also refuses empty
// strings and unknown arguments.
struct input_schemas {
  json::object listed;
  json::object validated;
};

input_schemas object_schema(json::object properties, json::array required) {
  json::object strict = properties;
  for (auto& [name, p] : strict)
    if (json::get_string(p.as_object(), "type") && !p.as_object().contains("enum")) p.as_object()["minLength"] = 1;
  return {json::object{{"type", "object"}, {"properties", std::move(properties)}, {"required", required}},
          json::object{{"type", "object"}, {"properties", std::move(strict)}, {"required", required}, {"additionalProperties", false}}};
}

tools::tool_def make_def(std::string name, std::string description, input_schemas schemas) {
  tools::tool_def t;
  t.name = name;
  t.plugin = "platform";
  t.base_name = name;
  t.kind = tools::tool_kind::platform;
  t.description = std::move(description);
  t.icon = "shield-check";
  t.input_schema = std::move(schemas.listed);
  t.validator = schema::compile_on_first_use(std::move(schemas.validated));
  return t;
}

}  // namespace

std::string review_tokens::issue(const std::string& plugin, const std::string& version, clock::time_point now) {
  std::erase_if(grants_, [&](const auto& kv) { return kv.second.expires <= now; });
  auto token = uuid_v4();
  grants_[token] = grant{plugin, version, now + ttl_};
  return token;
}

bool review_tokens::redeem(const std::string& token, const std::string& plugin, const std::string& version,
                           clock::time_point now) {
  auto it = grants_.find(token);
  if (it == grants_.end()) return false;
  bool good = it->second.expires > now && it->second.plugin == plugin && it->second.version == version;
  grants_.erase(it);  // single use, even when the attempt was wrong
  return good;
}

std::vector<tools::tool_def> platform_tool_defs() {
  const json::object text{{"type", "string"}};
  std::vector<tools::tool_def> out;
  out.push_back(make_def(
      "plugin_inspect",
      "Use when a call says a plugin is not reviewed: its adapter source, size, version and a one-use reviewToken for "
      "plugin_mark_reviewed.",
      object_schema(json::object{{"plugin", json::object{{"type", "string"}, {"description", "e.g. \"slack\""}}}}, json::array{"plugin"})));
  out.push_back(make_def(
      "plugin_mark_reviewed",
      "Enables a plugin reviewed with plugin_inspect, for that version and reviewToken (once, 10 minutes); permission "
      "ask: each call needs the user's approval, auto: none.",
      object_schema(json::object{{"plugin", text},
                                 {"version", text},
                                 {"reviewToken", text},
                                 {"permission", json::object{{"type", "string"}, {"enum", json::array{"ask", "auto"}}}}},
                    json::array{"plugin", "version", "reviewToken", "permission"})));
  return out;
}

net::awaitable<tools::call_result> platform_tools::dispatch(admitted_call& call) {
  co_return this->call(call.tool, call.args);
}

tools::call_result platform_tools::call(const tools::tool_def& tool, const json::object& args) {
  if (tool.validator) {
    auto& compiled = tool.validator->get();
    if (!compiled) return tools::call_result::text("Tool \"" + tool.name + "\" cannot be called: " + compiled.err().message, true);
    if (auto v = (*compiled)->check(args))
      return tools::call_result::text("Invalid arguments:\n  - " + v->display_path() + ": " + v->message, true);
  }
  if (tool.name == "plugin_inspect") return inspect(args);
  return mark_reviewed(args);
}

tools::call_result platform_tools::not_found(const std::string& name) const {
  std::string names;
  for (const auto& p : catalog_.plugins) names += (names.empty() ? "" : ", ") + p.name();
  return tools::call_result::text("Plugin \"" + name + "\" not found. Available plugins: " +
                                      (names.empty() ? std::string("(none)") : names),
                                  true);
}

tools::call_result platform_tools::inspect(const json::object& args) {
  std::string name(*json::get_string(args, "plugin"));
  const auto* p = catalog_.find_plugin(name);
  if (!p) return not_found(name);
  const auto& l = p->loaded;
  json::object out{{"plugin", json::str(l.name)}, {"version", json::str(l.version)}};
  if (!l.author.empty()) out["author"] = json::str(l.author);
  if (l.source == "npm") out["npmPackage"] = json::str(l.package_name);
  out["lineCount"] = count_lines(l.adapter_source);
  out["byteSize"] = l.adapter_source.size();
  if (l.pre_script) {
    out["preScriptSource"] = json::str(*l.pre_script);
    out["preScriptLineCount"] = count_lines(*l.pre_script);
    out["preScriptByteSize"] = l.pre_script->size();
  }
  out["reviewToken"] = json::str(tokens_.issue(l.name, l.version, review_tokens::clock::now()));
  out["reviewGuidance"] = kGuidance;
  out["adapterSource"] = json::str(l.adapter_source);
  return tools::call_result::text(json::dump(out));
}

tools::call_result platform_tools::mark_reviewed(const json::object& args) {
  std::string name(*json::get_string(args, "plugin"));
  std::string version(*json::get_string(args, "version"));
  std::string token(*json::get_string(args, "reviewToken"));
  auto level = *tools::parse_permission(*json::get_string(args, "permission"));
  const auto* p = catalog_.find_plugin(name);
  if (!p) return not_found(name);
  if (p->loaded.version != version)
    return tools::call_result::text("Version mismatch: plugin \"" + name + "\" is v" + p->loaded.version +
                                        ", not v" + version + ". Inspect it again.",
                                    true);
  if (!tokens_.redeem(token, name, version, review_tokens::clock::now()))
    return tools::call_result::text(
        "Invalid or expired review token. Call plugin_inspect again to get a new one (tokens are single-use and "
        "valid for 10 minutes).",
        true);
  auto problem = grants_.grant_reviewed(name, level, version);
  if (!problem.empty()) return tools::call_result::text(problem, true);
  return tools::call_result::text(json::dump(json::object{
      {"ok", true}, {"plugin", json::str(name)}, {"version", json::str(version)}, {"permission", json::str(tools::to_string(level))}}));
}

}  // namespace opentabs::app
