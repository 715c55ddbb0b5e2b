// The rules every prompt shares (see prompt_service.hpp).
#include "mcp/prompt_service.hpp"

#include "mcp/modern_request.hpp"
#include "util/strings.hpp"

namespace opentabs::mcp {

using jsonrpc::rpc_error;

namespace {

std::string got(const json::value& v) { return "got " + std::string(json::type_name(v)); }

jsonrpc::parsed<prompts_get_request> refused(rpc_error e) {
  jsonrpc::parsed<prompts_get_request> p;
  p.error = std::move(e);
  return p;
}

std::string argument_names(const prompt_def& prompt) {
  if (prompt.arguments.empty()) return "it takes no arguments";
  std::string out = "it takes ";
  for (std::size_t i = 0; i < prompt.arguments.size(); ++i) {
    const auto& a = prompt.arguments[i];
    out += (i ? ", " : "") + a.name + (a.required ? " (required)" : " (optional)");
  }
  return out;
}

}  // namespace

json::object prompt_def::to_json() const {
  json::object o{{"name", json::str(name)}};
  if (!title.empty()) o["title"] = json::str(title);
  o["description"] = json::str(description);
  json::array args;
  for (const auto& a : arguments)
    args.push_back(json::object{{"name", json::str(a.name)}, {"description", json::str(a.description)}, {"required", a.required}});
  o["arguments"] = std::move(args);
  return o;
}

prompt_result prompt_result::text(std::string description, std::string text) {
  prompt_result r;
  r.description = std::move(description);
  r.messages.push_back(json::object{{"role", "user"}, {"content", json::object{{"type", "text"}, {"text", json::str(text)}}}});
  return r;
}

const prompt_def* find_prompt(const std::vector<prompt_def>& prompts, std::string_view name) {
  for (const auto& p : prompts)
    if (p.name == name) return &p;
  return nullptr;
}

jsonrpc::parsed<prompts_get_request> parse_prompts_get(const json::object& params) {
  prompts_get_request r;
  const auto* name = json::find(params, "name");
  if (!name) return refused(rpc_error::invalid_params("params.name", "is required"));
  if (!name->is_string()) return refused(rpc_error::invalid_params("params.name", "must be a string, " + got(*name)));
  if (name->get_string().empty()) return refused(rpc_error::invalid_params("params.name", "must not be empty"));
  r.name = std::string(name->get_string());
  if (const auto* a = json::find(params, "arguments"); a && !a->is_null()) {
    if (!a->is_object()) return refused(rpc_error::invalid_params("params.arguments", "must be an object of strings, " + got(*a)));
    for (const auto& [key, value] : a->get_object())
      if (!value.is_string())
        return refused(rpc_error::invalid_params("params.arguments." + std::string(key).substr(0, 64), "must be a string (prompt arguments are text), " + got(value)));
    r.arguments = a->get_object();
  }
  if (const auto* responses = json::find(params, "inputResponses")) {
    if (!responses->is_object())
      return refused(rpc_error::invalid_params("params.inputResponses", "must be an object mapping inputRequests keys to results, " + got(*responses)));
    r.input_responses = json::copy_out(*responses);
  }
  if (const auto* state = json::find(params, "requestState")) {
    if (!state->is_string()) return refused(rpc_error::invalid_params("params.requestState", "must be a string, " + got(*state)));
    r.request_state = std::string(state->get_string());
  }
  jsonrpc::parsed<prompts_get_request> out;
  out.value = std::move(r);
  return out;
}

std::optional<rpc_error> check_prompt_arguments(const prompt_def& prompt, const json::object& arguments) {
  for (const auto& [key, value] : arguments) {
    bool declared = false;
    for (const auto& a : prompt.arguments) declared = declared || a.name == key;
    if (!declared)
      return rpc_error::invalid_params_text("Prompt " + prompt.name + " has no argument " + quote_for_error(key, 64) + ": " + argument_names(prompt));
  }
  for (const auto& a : prompt.arguments) {
    if (!a.required) continue;
    const auto* v = json::get_string(arguments, a.name);
    if (!v || trim(*v).empty())
      return rpc_error::invalid_params_text("Prompt " + prompt.name + " needs argument " + a.name + " (" + a.description + "); " + argument_names(prompt));
  }
  return std::nullopt;
}

rpc_error unknown_prompt(std::string_view name, const std::vector<prompt_def>& prompts) {
  std::string names;
  for (const auto& p : prompts) names += (names.empty() ? "" : ", ") + p.name;
  return rpc_error::invalid_params_text("Unknown prompt " + quote_for_error(name, 64) + "; the prompts are: " + (names.empty() ? std::string("(none)") : names));
}

json::object prompts_list_result(const std::vector<prompt_def>& prompts) {
  json::array list;
  for (const auto& p : prompts) list.push_back(p.to_json());
  return json::object{{"prompts", std::move(list)}};
}

std::string prompts_get_response(const json::value& id, const result<prompt_result>& answer, bool modern) {
  if (!answer) return jsonrpc::error_json(id, rpc_error::from(answer.err()));
  const auto& r = *answer;
  if (r.input_required) {
    json::object out = *r.input_required;
    out["resultType"] = "input_required";
    return jsonrpc::response_json(id, out);
  }
  json::object out;
  if (modern) out["resultType"] = "complete";
  if (!r.description.empty()) out["description"] = json::str(r.description);
  out["messages"] = r.messages;
  return jsonrpc::response_json(id, out);
}

}  // namespace opentabs::mcp
