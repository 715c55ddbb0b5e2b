// The requests an MCP endpoint answers, registered in one table (jsonrpc::method_table):
// ping, tools/list, tools/call, prompts/list, prompts/get, completion/complete (when prompts are
// offered), logging/setLevel (not on the gateway, which offers no logging capability),
// initialize (refused inside a session) and, on /mcp, resources/* (add_resource_methods).
// A name not in the table
// is -32601.  Handlers return the serialised response, or nullopt when a cancelled call
// must not be answered.  MCP has no per-method rate limit: the table's rate class is not
// consulted here.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "jsonrpc/jsonrpc.hpp"
#include "jsonrpc/method_table.hpp"
#include "mcp/live_session.hpp"
#include "mcp/sse_stream.hpp"
#include "mcp/tool_catalog.hpp"
#include "net/asio.hpp"
#include "tools/resource_service.hpp"
#include "tools/tool_service.hpp"

namespace opentabs::mcp {

class prompt_requests;

struct request_context {
  std::shared_ptr<live_session> session;
  const jsonrpc::message& msg;
  std::shared_ptr<stream_sink> sink;  // null: the POST is answered as JSON
};

using request_result = net::awaitable<std::optional<std::string>>;
using request_handler = std::function<request_result(request_context)>;
using request_methods = jsonrpc::method_table<request_handler>;

// `tools_call` runs tools/call (the endpoint's: it needs the session's call bookkeeping).
// `prompts`: prompts/list, prompts/get and completion/complete, when offered (not null).
request_methods make_request_methods(bool gateway, tool_catalog& catalog, request_handler tools_call, prompt_requests* prompts = nullptr);

// Whether `request` is a tools/list the endpoint answers straight from the catalog's cache
// (gzip-compressed for a client that accepts it, else with the cached listing shared into
// the response); false when it gets the ordinary answer instead: on the gateway (its
// two-tool list is small) or when tools/list refuses the params.
// The resources rows (resource_methods.cpp): list, templates/list and read from `service`
// (null: none to offer), subscribe and unsubscribe in the session's bounded set.
void add_resource_methods(request_methods& table, tools::resource_service* service);

bool answers_from_cached_listing(bool gateway, const jsonrpc::message& request);

// A finished tools/call as its response: the CallToolResult, except that an unknown tool
// is a protocol error on /mcp (-32602); through the gateway it stays the meta-tool's
// result, since opentabs_call itself exists.
// `modern`: a 2026-07-28 request, whose result starts with "resultType":"complete".
std::string tools_call_response(const json::value& id, const tools::call_result& result, bool gateway, bool modern = false);

}  // namespace opentabs::mcp
