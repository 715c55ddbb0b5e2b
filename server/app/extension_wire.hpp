// Where an expected failure becomes an error on the extension channel (spec §3): the one
// mapping from util/errc.hpp to the error objects the extension reads (a JSON-RPC code
// from jsonrpc::code_for plus the hints the side panel acts on: retryAfterMs when busy,
// npmErrorCode when npm failed), and the codes the extension itself answers with.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

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

// {"code","message"[,"data"]} for `e`: data.retryAfterMs when busy, data.npmErrorCode when
// npm gave a code (error::npm_code).
json::object extension_error_json(const error& e);

// A reply body {"error": extension_error_json(e)} for an inbound request.
json::object extension_error_reply(const error& e);

// The key under which a request's id is repeated inside its params (spec §3.3).
inline constexpr std::string_view kDispatchIdKey = "__opentabs_dispatchId";

// One request of ours as the frame sent: {"jsonrpc":"2.0","method":<method>,"params":
// {<params' members>,"__opentabs_dispatchId":<id>},"id":<id>}, built by the JSON-RPC
// request builder.  A dispatch id the caller's params carried is replaced by ours.
std::string request_frame(std::string_view method, std::string_view id, json::object params);

// tool.dispatch params: {"plugin":<plugin>,"tool":<tool>,"input":<input>[,"tabId":<tab>]}.
json::object tool_dispatch_params(std::string_view plugin, std::string_view tool, json::object input,
                                  std::optional<std::int64_t> tab_id);

}  // namespace opentabs::app
