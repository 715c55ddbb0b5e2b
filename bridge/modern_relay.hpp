// MCP 2026-07-28 through the stdio bridge, sans-I/O: a stdin request that carries its
// protocol version in params._meta (no initialize, no session) is relayed to /mcp as its
// own POST with the headers that revision requires: MCP-Protocol-Version from _meta,
// Mcp-Method, and Mcp-Name for tools/call, prompts/get and resources/read (Base64 sentinel
// form when the value is not plain header-safe ASCII).  A server/discover probe on stdin is
// relayed the same way, so a dual-era client learns the server's revisions from the server.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json/json.hpp"

namespace opentabs::bridge {

using header_pairs = std::vector<std::pair<std::string, std::string>>;

// The 2026-07-28 headers for one stdin line; nullopt when the line is not such a request
// (then it takes the session path).  Lines without the _meta version key are not parsed.
std::optional<header_pairs> modern_request_headers(std::string_view line);

// The requestId of a notifications/cancelled line; nullopt for any other line, or one whose
// requestId is missing or not a string or an integer.  Over HTTP a 2026-07-28 request is
// cancelled by closing its stream, so the bridge acts on this instead of relaying it.
std::optional<json::value> cancelled_request_id(std::string_view line);

// A header value as the revision sends it: as it is when it is visible ASCII or inner
// spaces, else "=?base64?<base64 of the UTF-8 bytes>?=" (also for values that look like the
// sentinel themselves).
std::string header_safe_value(std::string_view value);

}  // namespace opentabs::bridge
