// Expected failures as extension-channel errors (see extension_wire.hpp).
#include "app/extension_wire.hpp"

#include "jsonrpc/jsonrpc.hpp"

namespace opentabs::app {

json::object extension_error_json(const error& e) {
  json::object err{{"code", jsonrpc::code_for(e.kind)}, {"message", json::str(e.message)}};
  if (e.is(errc::busy)) err["data"] = json::object{{"retryAfterMs", kBusyRetryAfterMs}};
  else if (!e.npm_code.empty()) err["data"] = json::object{{"npmErrorCode", json::str(e.npm_code)}};
  return err;
}

json::object extension_error_reply(const error& e) { return json::object{{"error", extension_error_json(e)}}; }

std::string request_frame(std::string_view method, std::string_view id, json::object params) {
  params[std::string(kDispatchIdKey)] = json::str(id);
  return json::dump(jsonrpc::request_object(json::str(id), method, std::move(params)));
}

json::object tool_dispatch_params(std::string_view plugin, std::string_view tool, json::object input,
                                  std::optional<std::int64_t> tab_id) {
  json::object params{{"plugin", json::str(plugin)}, {"tool", json::str(tool)}, {"input", std::move(input)}};
  if (tab_id) params["tabId"] = *tab_id;
  return params;
}

}  // namespace opentabs::app
