// The MCP request table (see request_methods.hpp).
#include "mcp/request_methods.hpp"

#include "mcp/gateway_tools.hpp"
#include "mcp/modern_request.hpp"
#include "mcp/prompt_requests.hpp"
#include "mcp/requests.hpp"

namespace opentabs::mcp {
namespace {

using jsonrpc::call_kind;
using jsonrpc::params_kind;

// The synchronous handlers compute their answer before this coroutine starts, so no
// handler state has to outlive the call.
request_result answer_now(std::string response) { co_return response; }

request_result answer_when_done(net::awaitable<std::string> work) { co_return co_await std::move(work); }

std::string first_text(const tools::call_result& r) {
  for (const auto& block : r.content)
    if (block.is_object())
      if (const auto* t = json::get_string(block.get_object(), "text")) return std::string(*t);
  return "Unknown tool";
}

}  // namespace

request_methods make_request_methods(bool gateway, tool_catalog& catalog, request_handler tools_call, prompt_requests* prompts) {
  request_methods table;
  table.add("ping", {[](request_context ctx) { return answer_now(jsonrpc::response_json(ctx.msg.id, "{}")); },
                     params_kind::none, call_kind::request});
  table.add("tools/list", {[gateway, &catalog](request_context ctx) {
                             auto p = parse_tools_list(ctx.msg.params());
                             if (!p) return answer_now(jsonrpc::error_json(ctx.msg.id, p.error));
                             return answer_now(jsonrpc::response_json(
                                 ctx.msg.id, gateway ? gateway::tools_list_result() : catalog.tools_list_result()));
                           },
                           params_kind::object, call_kind::request});
  table.add("tools/call", {std::move(tools_call), params_kind::object, call_kind::request});
  if (prompts && prompts->offered()) {
    table.add("prompts/list", {[prompts](request_context ctx) { return answer_now(prompts->list(ctx.msg, false)); },
                               params_kind::object, call_kind::request});
    table.add("prompts/get", {[prompts](request_context ctx) { return answer_when_done(prompts->get(ctx.msg, std::move(ctx.session), std::move(ctx.sink), nullptr)); },
                              params_kind::object, call_kind::request});
    table.add("completion/complete", {[prompts](request_context ctx) { return answer_when_done(prompts->complete(ctx.msg, false)); },
                                      params_kind::object, call_kind::request});
  }
  if (!gateway) {
    table.add("logging/setLevel", {[](request_context ctx) {
                                     auto p = parse_set_level(ctx.msg.params());
                                     if (!p) return answer_now(jsonrpc::error_json(ctx.msg.id, p.error));
                                     ctx.session->rec->log.set(p.value->level);
                                     return answer_now(jsonrpc::response_json(ctx.msg.id, "{}"));
                                   },
                                   params_kind::object, call_kind::request});
  }
  table.add("initialize", {[](request_context ctx) {
                             return answer_now(jsonrpc::error_json(
                                 ctx.msg.id, jsonrpc::rpc_error::invalid_request(
                                                 "this session is already initialized; to start over, send initialize "
                                                 "without Mcp-Session-Id")));
                           },
                           params_kind::object, call_kind::request});
  return table;
}

bool answers_from_cached_listing(bool gateway, const jsonrpc::message& request) {
  if (gateway || request.kind != jsonrpc::message_kind::request || request.method != "tools/list") return false;
  return static_cast<bool>(parse_tools_list(request.params()));
}

std::string tools_call_response(const json::value& id, const tools::call_result& result, bool gateway, bool modern) {
  if ((result.failure == errc::not_found && !gateway) || result.failure == errc::invalid_params)
    return jsonrpc::error_json(id, jsonrpc::rpc_error::invalid_params_text(first_text(result)));
  if (result.input_required) {
    json::object answer = *result.input_required;
    answer["resultType"] = "input_required";
    return jsonrpc::response_json(id, answer);
  }
  // dump(response_object(id, result.to_json())) written as text, without copying the content.
  std::size_t text_bytes = 0;
  for (const auto& block : result.content)
    if (const auto* o = block.if_object())
      if (const auto* t = json::get_string(*o, "text")) text_bytes += t->size();
  std::string out;
  out.reserve(128 + text_bytes + text_bytes / 8);
  jsonrpc::append_response_head(out, id);
  out += '{';
  if (modern) {
    out += complete_field;
    out += ',';
  }
  out += R"("content":)";
  json::append_dump(out, result.content);
  if (result.is_error) out += R"(,"isError":true)";
  out += "}}";
  return out;
}

}  // namespace opentabs::mcp
