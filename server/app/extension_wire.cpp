// Expected failures as extension-channel errors (see extension_wire.hpp).
#include "app/extension_wire.hpp"

#include "jsonrpc/jsonrpc.hpp"
#include "util/strings.hpp"

namespace opentabs::app {

json::object extension_error_json(const error& e) {
  json::object err{{"code", jsonrpc::code_for(e.kind)}, {"message", json::str(e.message)}};
  if (e.is(errc::busy)) err["data"] = json::object{{"retryAfterMs", kBusyRetryAfterMs}};
  else if (starts_with(e.code, "npm:") && e.code.size() > 4) err["data"] = json::object{{"npmErrorCode", json::str(e.code.substr(4))}};
  return err;
}

json::object extension_error_reply(const error& e) { return json::object{{"error", extension_error_json(e)}}; }

std::string request_frame(std::string_view method, std::string_view id, std::string_view params_json) {
  std::string out;
  out.reserve(params_json.size() + method.size() + 2 * id.size() + 80);
  out += R"({"jsonrpc":"2.0","method":)";
  json::append_quoted(out, method);
  out += R"(,"params":)";
  out.append(params_json.substr(0, params_json.size() - 1));  // without its closing '}'
  if (params_json.size() > 2) out += ',';                     // "{}" has no members
  json::append_quoted(out, kDispatchIdKey);
  out += ':';
  json::append_quoted(out, id);
  out += R"(},"id":)";
  json::append_quoted(out, id);
  out += '}';
  return out;
}

std::string tool_dispatch_params(std::string_view plugin, std::string_view tool, const json::object& input,
                                 std::optional<std::int64_t> tab_id) {
  std::string out;
  out.reserve(64 + plugin.size() + tool.size());
  out += R"({"plugin":)";
  json::append_quoted(out, plugin);
  out += R"(,"tool":)";
  json::append_quoted(out, tool);
  out += R"(,"input":)";
  json::append_dump(out, input);
  if (tab_id) {
    out += R"(,"tabId":)";
    out += std::to_string(*tab_id);
  }
  out += '}';
  return out;
}

}  // namespace opentabs::app
