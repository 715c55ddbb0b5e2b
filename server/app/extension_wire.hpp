// Where an expected failure becomes an error on the extension channel (spec §3): the one
// mapping from util/errc.hpp to the error objects the extension reads (a JSON-RPC code
// from jsonrpc::code_for plus the hints the side panel acts on: retryAfterMs when busy,
// npmErrorCode when npm failed), and the codes the extension itself answers with.
#pragma once

#include <cstdint>

#include "json/json.hpp"
#include "util/result.hpp"

namespace opentabs::app {

// The extension's own error codes in replies to tool.dispatch / browser.* (spec §3.7).
namespace extension_code {
inline constexpr std::int64_t tab_closed = -32001;
inline constexpr std::int64_t tab_unavailable = -32002;
}  // namespace extension_code

// How long the side panel is told to wait before retrying a busy plugin operation.
inline constexpr std::int64_t kBusyRetryAfterMs = 2000;

// {"code","message"[,"data"]} for `e`.  A code "npm:<E…>" names npm's error code.
json::object extension_error_json(const error& e);

// A reply body {"error": extension_error_json(e)} for an inbound request.
json::object extension_error_reply(const error& e);

}  // namespace opentabs::app
