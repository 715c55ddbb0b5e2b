// The codes the server itself writes into an audit entry's error.code (spec §2.4), derived
// from the error's category in one table so the audit log speaks the same vocabulary as the
// wires.  A plugin's own ToolError code ("AUTH_ERROR" …) and a stringified JSON-RPC code from
// the extension are recorded as they came; they are not ours to name.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "audit/audit_entry.hpp"
#include "util/errc.hpp"

namespace opentabs::audit {

enum class audit_code {
  validation_error,        // the arguments broke the tool's input schema
  invalid_schema,          // the tool's own input schema could not be compiled
  invalid_input_response,  // a retry's requestState or inputResponses was refused
  permission_denied,       // the tool is disabled or the user said no
  not_found,               // the tool (or the page offering it) is gone
  rate_limited,            // too many calls at once
  tool_error,              // the tool ran and reported an error
  answer_not_used,         // an answer to a question already decided elsewhere (not a call)
  unknown,                 // anything else: not connected, shutting down, a failure without a code
};

constexpr std::string_view to_string(audit_code c) {
  switch (c) {
    case audit_code::validation_error: return "VALIDATION_ERROR";
    case audit_code::invalid_schema: return "INVALID_SCHEMA";
    case audit_code::invalid_input_response: return "INVALID_INPUT_RESPONSE";
    case audit_code::permission_denied: return "PERMISSION_DENIED";
    case audit_code::not_found: return "NOT_FOUND";
    case audit_code::rate_limited: return "RATE_LIMITED";
    case audit_code::tool_error: return "TOOL_ERROR";
    case audit_code::answer_not_used: return "ANSWER_NOT_USED";
    case audit_code::unknown: return "UNKNOWN";
  }
  return "UNKNOWN";
}

// The audit code of a category; the finer codes (invalid_schema, invalid_input_response) are
// named by the one caller that knows them.
constexpr audit_code audit_code_for(errc e) {
  switch (e) {
    case errc::parse_error:
    case errc::invalid_request:
    case errc::invalid_params:
    case errc::too_large: return audit_code::validation_error;
    case errc::method_not_found:
    case errc::not_found: return audit_code::not_found;
    case errc::busy:
    case errc::rate_limited: return audit_code::rate_limited;
    case errc::denied: return audit_code::permission_denied;
    case errc::tool_failed: return audit_code::tool_error;
    case errc::timeout:
    case errc::cancelled:
    case errc::unsupported:
    case errc::unavailable:
    case errc::io:
    case errc::internal: return audit_code::unknown;
  }
  return audit_code::unknown;
}

inline audit_error make_audit_error(audit_code code, std::string message) {
  return audit_error{std::string(to_string(code)), std::move(message), std::nullopt};
}
inline audit_error make_audit_error(errc kind, std::string message) {
  return make_audit_error(audit_code_for(kind), std::move(message));
}

}  // namespace opentabs::audit
