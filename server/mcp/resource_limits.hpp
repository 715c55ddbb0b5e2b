// The bounds on what one client may name among the resources: the length of a URI, and
// how many it may watch at once (per 2025-11-25 session, per subscriptions/listen stream).
// Shared by resource_requests (resources/*) and modern_request (the listen filter).
#pragma once

#include <cstddef>

namespace opentabs::mcp {

// A URI longer than this names nothing the server offers: refused before any lookup.
inline constexpr std::size_t max_resource_uri_bytes = 2048;
// Resource subscriptions one client holds at most, so it cannot grow the server's memory
// without end.
inline constexpr std::size_t max_resource_subscriptions = 64;

}  // namespace opentabs::mcp
