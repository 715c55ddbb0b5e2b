#include "mcp/gateway_tools.hpp"

namespace opentabs::mcp::gateway {

namespace {

error invalid(std::string_view tool, std::string_view path, std::string_view problem) {
  return make_error(errc::invalid_params, "Invalid arguments for tool \"" + std::string(tool) + "\":\n  - " + std::string(path) + ": " + std::string(problem));
}

std::string build_list() {
  json::object list_schema{
      {"type", "object"},
      {"properties", json::object{{"plugin", json::object{{"type", "string"},
                                                          {"description", "Only this plugin's tools (a plugin name, \"browser\" or \"platform\")"}}}}},
      {"additionalProperties", false}};
  json::object call_schema{
      {"type", "object"},
      {"properties", json::object{{"tool", json::object{{"type", "string"}, {"description", "Name of the tool to call, as listed by opentabs_list_tools"}}},
                                  {"arguments", json::object{{"type", "object"}, {"description", "Arguments for that tool (its inputSchema)"}}}}},
      {"required", json::array{"tool"}},
      {"additionalProperties", false}};
  json::array tools{
      json::object{{"name", json::str(list_tools_tool)},
                   {"description", "List the OpenTabs tools available through opentabs_call: a JSON array of {name, description, inputSchema, plugin}. "
                                   "Pass plugin to list only one plugin's tools."},
                   {"inputSchema", list_schema}},
      json::object{{"name", json::str(call_tool)},
                   {"description", "Call one OpenTabs tool by name with its arguments. The result is the tool's own result. "
                                   "Permissions, approval prompts and argument validation apply as for a direct call."},
                   {"inputSchema", call_schema}}};
  return json::dump(json::object{{"tools", tools}});
}

}  // namespace

const std::string& tools_list_result() {
  static const std::string list = build_list();
  return list;
}

result<std::optional<std::string>> parse_list_arguments(const json::object& args) {
  for (const auto& kv : args)
    if (kv.key() != "plugin") return invalid(list_tools_tool, kv.key(), "unknown argument (allowed: plugin)");
  const auto* p = json::find(args, "plugin");
  if (!p || p->is_null()) return std::optional<std::string>();
  if (!p->is_string()) return invalid(list_tools_tool, "plugin", "must be a string, got " + std::string(json::type_name(*p)));
  return std::optional<std::string>(std::string(p->get_string()));
}

result<call_target> parse_call_arguments(const json::object& args) {
  for (const auto& kv : args)
    if (kv.key() != "tool" && kv.key() != "arguments") return invalid(call_tool, kv.key(), "unknown argument (allowed: tool, arguments)");
  const auto* t = json::find(args, "tool");
  if (!t) return invalid(call_tool, "tool", "is required");
  if (!t->is_string()) return invalid(call_tool, "tool", "must be a string, got " + std::string(json::type_name(*t)));
  if (t->get_string().empty()) return invalid(call_tool, "tool", "must not be empty");
  call_target c;
  c.tool = std::string(t->get_string());
  if (const auto* a = json::find(args, "arguments"); a && !a->is_null()) {
    if (!a->is_object()) return invalid(call_tool, "arguments", "must be an object, got " + std::string(json::type_name(*a)));
    c.arguments = a->get_object();
  }
  return c;
}

}  // namespace opentabs::mcp::gateway
