// MCP protocol revisions this server speaks (the 2025 "legacy era"), initialize
// negotiation, the MCP-Protocol-Version header rule and what each revision allows.
// Sans-I/O.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "util/result.hpp"

namespace opentabs::mcp {

inline constexpr std::string_view latest_protocol_version = "2025-11-25";
// Newest first.
inline constexpr std::array<std::string_view, 3> supported_protocol_versions{"2025-11-25", "2025-06-18", "2025-03-26"};
// What a request without the header and without a session is assumed to speak.
inline constexpr std::string_view default_header_version = "2025-03-26";

bool is_supported_version(std::string_view v);
// "2025-11-25, 2025-06-18, 2025-03-26"
std::string supported_versions_text();

// initialize: echo a supported request, otherwise offer the newest (the client decides
// whether to disconnect; initialize never fails for an unknown version).
std::string negotiate_version(std::string_view requested);

// The version a request after initialize speaks: the header when present (any supported
// version is accepted, not only the negotiated one), else the session's negotiated one.
// An unsupported header is an error (HTTP 400).
result<std::string> effective_version(std::string_view header, std::string_view negotiated);

// JSON-RPC batches (array bodies) exist only in 2025-03-26.
bool allows_batches(std::string_view negotiated);

}  // namespace opentabs::mcp
