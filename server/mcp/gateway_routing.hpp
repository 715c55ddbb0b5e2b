// How a tools/call on /mcp/gateway is routed, sans-I/O: opentabs_list_tools is answered
// from the tool catalog, opentabs_call names the real tool the pipeline then calls, and any
// other name is a protocol error (-32602).  Argument mistakes are the meta-tool's isError
// result, since the meta-tool itself exists.
#pragma once

#include <string>

#include "json/json.hpp"
#include "jsonrpc/jsonrpc.hpp"
#include "mcp/gateway_tools.hpp"
#include "mcp/tool_catalog.hpp"
#include "tools/tool_service.hpp"

namespace opentabs::mcp {

struct gateway_route {
  enum class kind {
    answer,   // `answer` is the call's result (opentabs_list_tools, bad arguments)
    error,    // `error` answers the request (no such meta-tool)
    forward,  // call `target` through the pipeline
  } what = kind::answer;
  tools::call_result answer;
  jsonrpc::rpc_error error;
  gateway::call_target target;
};

gateway_route route_gateway_call(tool_catalog& catalog, const std::string& tool, json::object arguments);

}  // namespace opentabs::mcp
