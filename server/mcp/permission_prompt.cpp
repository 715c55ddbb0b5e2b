#include "mcp/permission_prompt.hpp"

#include "tools/shown_arguments.hpp"

namespace opentabs::mcp {

namespace {

json::object choice(std::string_view value, std::string_view title) {
  return json::object{{"const", json::str(value)}, {"title", json::str(title)}};
}

error bad_answer(std::string_view where, std::string_view why) {
  return make_error(errc::invalid_params, std::string(where) + " " + std::string(why));
}

}  // namespace

json::object permission_elicitation_params(const permission_question& q) {
  std::string message = "OpenTabs: allow the tool \"" + q.tool + "\"";
  if (!q.plugin.empty()) message += " (" + q.plugin + ")";
  if (!q.where.empty()) message += " on " + q.where;
  message += "?";
  if (q.arguments && !q.arguments->empty()) message += "\nArguments: " + tools::shown_arguments(*q.arguments);
  json::object decision{{"type", "string"},
                        {"title", "Decision"},
                        {"description", "The same choices as the OpenTabs side panel"},
                        {"oneOf", json::array{choice("allow_once", "Allow once"), choice("always_allow", "Always allow this tool"),
                                              choice("deny", "Deny")}}};
  return json::object{{"mode", "form"},
                      {"message", json::str(message)},
                      {"requestedSchema", json::object{{"type", "object"},
                                                       {"properties", json::object{{"decision", std::move(decision)}}},
                                                       {"required", json::array{"decision"}}}}};
}

json::object permission_input_request(const permission_question& q) {
  return json::object{{"method", "elicitation/create"}, {"params", permission_elicitation_params(q)}};
}

result<permission_answer> read_permission_answer(const json::value* response, std::string_view where) {
  if (!response) return permission_answer::unanswered;
  const auto* r = response->if_object();
  if (!r) return bad_answer(where, "must be an ElicitResult object, got " + std::string(json::type_name(*response)));
  const auto* action = json::get_string(*r, "action");
  if (!action) return bad_answer(where, "must carry action \"accept\", \"decline\" or \"cancel\"");
  if (*action == "decline" || *action == "cancel") return permission_answer::deny;
  if (*action != "accept") return bad_answer(where, ".action must be \"accept\", \"decline\" or \"cancel\"");
  const auto* content = json::get_object(*r, "content");
  const auto* d = content ? json::get_string(*content, "decision") : nullptr;
  if (!d) return bad_answer(where, ".content.decision is required when the action is accept");
  if (*d == "allow_once") return permission_answer::allow_once;
  if (*d == "always_allow") return permission_answer::always_allow;
  if (*d == "deny") return permission_answer::deny;
  return bad_answer(where, ".content.decision must be \"allow_once\", \"always_allow\" or \"deny\"");
}

}  // namespace opentabs::mcp
