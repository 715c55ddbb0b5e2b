// The permission question of an `ask` tool put to the user through the agent's own UI: a
// form elicitation (MCP elicitation/create, mode "form") naming the tool, where it acts (the
// tab and its site, the host a URL opens) and all of its arguments with secrets redacted, offering the side panel's three choices; and the
// reading of the user's answer (an ElicitResult).  Used as an inputRequest of a 2026-07-28
// InputRequiredResult and as the elicitation/create request of a 2025-11-25 session.
#pragma once

#include <string>
#include <string_view>

#include "json/json.hpp"
#include "tools/permission_askers.hpp"
#include "util/result.hpp"

namespace opentabs::mcp {

// The inputRequests key of the permission question.
inline constexpr std::string_view permission_input_key = "opentabs_permission";

struct permission_question {
  std::string tool;    // full MCP tool name
  std::string plugin;  // plugin name, "browser" or the WebMCP site
  std::string where;   // the site or tab it acts on, for people ("" when unknown)
  const json::object* arguments = nullptr;
};

// {"mode":"form","message":...,"requestedSchema":{...}}: the params of elicitation/create.
json::object permission_elicitation_params(const permission_question& q);
// {"method":"elicitation/create","params":...}: one entry of an inputRequests map.
json::object permission_input_request(const permission_question& q);

using tools::permission_answer;

// The user's answer in an ElicitResult: accept with content.decision one of the three
// choices; decline and cancel deny.  `response` null: not answered (ask again).  A value
// that is not an ElicitResult, or an accepted one without a known decision, is an
// errc::invalid_params error naming `where` (e.g. "params.inputResponses.opentabs_permission").
result<permission_answer> read_permission_answer(const json::value* response, std::string_view where);

}  // namespace opentabs::mcp
