// The categories of expected failure, one enum for the whole server.  It lives in util/,
// next to result.hpp, because every module produces errors and util is the one module all
// of them depend on; each boundary maps a category to its wire form exactly once:
// net::http_status_for (HTTP), jsonrpc::code_for (MCP / JSON-RPC) and
// app::extension_error_json (the extension channel, which adds retry hints and npm codes).
#pragma once

#include <string_view>

namespace opentabs {

enum class errc {
  parse_error,       // the bytes are not valid JSON
  invalid_request,   // the message itself is malformed (not the params)
  invalid_params,    // a named field is missing or wrong
  method_not_found,  // no handler for the method
  not_found,         // the thing named (file, plugin, tool, session) does not exist
  too_large,         // over a size limit
  busy,              // a conflicting operation is running; retry later
  rate_limited,      // too many requests; retry later
  timeout,           // no answer in time
  cancelled,         // called off by the caller or the user before it finished
  denied,            // not allowed: a missing or wrong credential, a refused permission
  tool_failed,       // a tool ran (or was refused) and failed: a tool result, not a protocol error
  unsupported,       // understood, but this build cannot do it
  unavailable,       // the server (or a peer it needs) is not there: shutting down, not connected
  io,                // the operating system refused (read, write, spawn)
  internal,          // a bug or broken invariant surfaced as a value
};

// The stable name of a category ("not_found"); also the code() of errors made from it.
constexpr std::string_view to_string(errc e) {
  switch (e) {
    case errc::parse_error: return "parse_error";
    case errc::invalid_request: return "invalid_request";
    case errc::invalid_params: return "invalid_params";
    case errc::method_not_found: return "method_not_found";
    case errc::not_found: return "not_found";
    case errc::too_large: return "too_large";
    case errc::busy: return "busy";
    case errc::rate_limited: return "rate_limited";
    case errc::timeout: return "timeout";
    case errc::cancelled: return "cancelled";
    case errc::denied: return "denied";
    case errc::tool_failed: return "tool_failed";
    case errc::unsupported: return "unsupported";
    case errc::unavailable: return "unavailable";
    case errc::io: return "io";
    case errc::internal: return "internal";
  }
  return "internal";
}

// Every category, for the tables and tests that must cover each one.
inline constexpr errc all_errc[] = {errc::parse_error, errc::invalid_request, errc::invalid_params, errc::method_not_found,
                                    errc::not_found,   errc::too_large,       errc::busy,           errc::rate_limited,
                                    errc::timeout,     errc::cancelled,       errc::denied,         errc::tool_failed,
                                    errc::unsupported, errc::unavailable,     errc::io,             errc::internal};

}  // namespace opentabs
