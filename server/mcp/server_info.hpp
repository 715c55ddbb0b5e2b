// What the server says about itself in the initialize and server/discover results: serverInfo, capabilities
// and the instructions text a client may hand to its model.  /mcp and /mcp/gateway
// differ (name, tools, no logging on the gateway).
#pragma once

#include <string>
#include <string_view>

#include "json/json.hpp"

namespace opentabs::mcp {

// The initialize result for the negotiated version.
// `prompts`: the endpoint offers prompts and completion (capabilities prompts, completions).
json::object initialize_result(bool gateway, std::string_view negotiated_version, std::string_view server_version, bool prompts = false);

std::string_view instructions(bool gateway);

// The 2026-07-28 server/discover result: every served revision, the capabilities (tools
// with listChanged, logging off the gateway, the extensions served), the server's identity
// in _meta, the instructions, and caching hints.  It depends on nothing but the binary, so
// a client may keep it.
json::object discover_result(bool gateway, std::string_view server_version, bool prompts = false);

}  // namespace opentabs::mcp
