#include "tools/tool_service.hpp"

namespace opentabs::tools {

call_result call_result::text(std::string text, bool is_error, std::optional<errc> failure) {
  call_result r;
  r.content.push_back(json::object{{"type", "text"}, {"text", json::str(text)}});
  r.is_error = is_error;
  r.failure = failure;
  return r;
}

json::object call_result::to_json() const {
  json::object o{{"content", content}};
  if (is_error) o["isError"] = true;
  return o;
}

}  // namespace opentabs::tools

namespace opentabs::tools {

bool can_elicit_form(const json::object& client_capabilities) {
  const auto* e = json::get_object(client_capabilities, "elicitation");
  return e && (e->empty() || e->contains("form"));
}

}  // namespace opentabs::tools
