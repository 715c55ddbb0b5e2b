// The bridge's own answers (see local_answers.hpp).
#include "bridge/local_answers.hpp"

#include "jsonrpc/jsonrpc.hpp"
#include "mcp/modern_request.hpp"
#include "mcp/protocol_version.hpp"
#include "mcp/requests.hpp"
#include "mcp/server_info.hpp"

namespace opentabs::bridge {

namespace {
// The bridge relays to /mcp, never to the gateway, and /mcp offers prompts and completion.
constexpr bool kGateway = false;
constexpr bool kPrompts = true;
}  // namespace

std::optional<std::string> discover_answer(std::string_view line) {
  if (line.find("server/discover") == std::string_view::npos) return std::nullopt;
  auto parsed = json::parse(line);
  if (!parsed) return std::nullopt;
  auto c = jsonrpc::classify(*parsed);
  if (!c || c.msg->kind != jsonrpc::message_kind::request || c.msg->method != "server/discover") return std::nullopt;
  // On stdio there are no headers: only the request's _meta is checked.
  auto admitted = mcp::admit_modern(*c.msg, mcp::modern_headers{false, std::nullopt, std::nullopt, std::nullopt}, line.size());
  if (!admitted) return jsonrpc::error_json(c.msg->id, admitted.refused.error);
  return jsonrpc::response_json(c.msg->id, mcp::discover_result(kGateway, OPENTABS_VERSION, kPrompts));
}

initialize_answer answer_initialize(const json::object& request) {
  const json::value id = json::find(request, "id") ? json::copy_out(*json::find(request, "id")) : json::value(nullptr);
  const auto* params = json::get_object(request, "params");
  const json::object none;
  auto init = mcp::parse_initialize(params ? *params : none);
  if (!init) return {jsonrpc::error_json(id, init.error), false};
  const auto version = mcp::negotiate_version(init.value->protocol_version);
  return {jsonrpc::response_json(id, mcp::initialize_result(kGateway, version, OPENTABS_VERSION, kPrompts)), true};
}

}  // namespace opentabs::bridge
