#include "mcp/requests.hpp"

#include "tools/tool_service.hpp"

namespace opentabs::mcp {

namespace {

template <class T>
parsed<T> fail(rpc_error e) {
  parsed<T> p;
  p.error = std::move(e);
  return p;
}

template <class T>
parsed<T> ok(T v) {
  parsed<T> p;
  p.value = std::move(v);
  return p;
}

std::string got(const json::value& v) { return "got " + std::string(json::type_name(v)); }

}  // namespace

parsed<initialize_request> parse_initialize(const json::object& params) {
  initialize_request r;
  const auto* pv = json::find(params, "protocolVersion");
  if (!pv) return fail<initialize_request>(rpc_error::invalid_params("params.protocolVersion", "is required"));
  if (!pv->is_string()) return fail<initialize_request>(rpc_error::invalid_params("params.protocolVersion", "must be a string, " + got(*pv)));
  r.protocol_version = std::string(pv->get_string());
  const auto* caps = json::find(params, "capabilities");
  if (!caps) return fail<initialize_request>(rpc_error::invalid_params("params.capabilities", "is required"));
  if (!caps->is_object()) return fail<initialize_request>(rpc_error::invalid_params("params.capabilities", "must be an object, " + got(*caps)));
  r.can_elicit_form = tools::can_elicit_form(caps->get_object());
  r.can_sample = caps->get_object().contains("sampling");
  const auto* info = json::find(params, "clientInfo");
  if (!info) return fail<initialize_request>(rpc_error::invalid_params("params.clientInfo", "is required"));
  if (!info->is_object()) return fail<initialize_request>(rpc_error::invalid_params("params.clientInfo", "must be an object, " + got(*info)));
  const auto* name = json::find(info->get_object(), "name");
  if (!name || !name->is_string())
    return fail<initialize_request>(rpc_error::invalid_params("params.clientInfo.name", name ? "must be a string, " + got(*name) : "is required"));
  r.client_name = std::string(name->get_string());
  const auto* version = json::find(info->get_object(), "version");
  if (!version || !version->is_string())
    return fail<initialize_request>(rpc_error::invalid_params("params.clientInfo.version", version ? "must be a string, " + got(*version) : "is required"));
  r.client_version = std::string(version->get_string());
  return ok(std::move(r));
}

parsed<tools_list_request> parse_tools_list(const json::object& params) {
  if (const auto* c = json::find(params, "cursor")) {
    if (!c->is_string()) return fail<tools_list_request>(rpc_error::invalid_params("params.cursor", "must be a string, " + got(*c)));
    return fail<tools_list_request>(rpc_error::invalid_params("params.cursor", "is not a cursor this server issued (its lists have a single page)"));
  }
  return ok(tools_list_request{});
}

parsed<tools_call_request> parse_tools_call(const json::object& params) {
  tools_call_request r;
  const auto* name = json::find(params, "name");
  if (!name) return fail<tools_call_request>(rpc_error::invalid_params("params.name", "is required"));
  if (!name->is_string()) return fail<tools_call_request>(rpc_error::invalid_params("params.name", "must be a string, " + got(*name)));
  if (name->get_string().empty()) return fail<tools_call_request>(rpc_error::invalid_params("params.name", "must not be empty"));
  r.name = std::string(name->get_string());
  if (const auto* a = json::find(params, "arguments"); a && !a->is_null()) {
    if (!a->is_object()) return fail<tools_call_request>(rpc_error::invalid_params("params.arguments", "must be an object, " + got(*a)));
    r.arguments = a->get_object();
  }
  if (const auto* responses = json::find(params, "inputResponses")) {
    if (!responses->is_object())
      return fail<tools_call_request>(rpc_error::invalid_params("params.inputResponses", "must be an object mapping inputRequests keys to results, " + got(*responses)));
    r.input_responses = json::copy_out(*responses);
  }
  if (const auto* state = json::find(params, "requestState")) {
    if (!state->is_string()) return fail<tools_call_request>(rpc_error::invalid_params("params.requestState", "must be a string, " + got(*state)));
    r.request_state = std::string(state->get_string());
  }
  if (const auto* meta = json::find(params, "_meta"); meta && !meta->is_null()) {
    if (!meta->is_object()) return fail<tools_call_request>(rpc_error::invalid_params("params._meta", "must be an object, " + got(*meta)));
    if (const auto* t = json::find(meta->get_object(), "progressToken"); t && !t->is_null()) {
      bool integral = t->is_int64() || t->is_uint64();
      if (!t->is_string() && !integral)
        return fail<tools_call_request>(rpc_error::invalid_params("params._meta.progressToken", "must be a string or an integer, " + got(*t)));
      r.progress_token = *t;
    }
  }
  return ok(std::move(r));
}

parsed<set_level_request> parse_set_level(const json::object& params) {
  const auto* l = json::find(params, "level");
  if (!l) return fail<set_level_request>(rpc_error::invalid_params("params.level", "is required"));
  if (!l->is_string()) return fail<set_level_request>(rpc_error::invalid_params("params.level", "must be a string, " + got(*l)));
  auto level = parse_log_level(l->get_string());
  if (!level)
    return fail<set_level_request>(rpc_error::invalid_params(
        "params.level", "must be one of " + std::string(log_levels_text()) + ", got \"" + std::string(l->get_string()).substr(0, 40) + "\""));
  return ok(set_level_request{*level});
}

std::optional<json::value> parse_cancelled(const json::object& params) {
  const auto* id = json::find(params, "requestId");
  if (!id || !(id->is_string() || id->is_int64() || id->is_uint64())) return std::nullopt;
  return *id;
}

}  // namespace opentabs::mcp
