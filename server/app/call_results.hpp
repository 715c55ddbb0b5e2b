// How extension replies and pipeline refusals become MCP CallToolResults — the one place
// where wire errors of tool calls are worded (spec §3.7 steps 8–9, §6.3).
#pragma once

#include <string>

#include "app/dispatch_table.hpp"
#include "audit/audit_entry.hpp"
#include "tools/tool.hpp"
#include "tools/tool_service.hpp"

namespace opentabs::app {

// Drops keys named __proto__, constructor and prototype at any depth (≤ 50), so a page
// cannot smuggle them into clients that merge results into objects.
json::value sanitize_output(const json::value& v);

// A successful tool.dispatch / browser.* answer: result.output (or the whole result) as
// compact JSON text.
tools::call_result success_result(const json::value& result, bool unwrap_output);

// A successful browser.* answer for `tool_name`: browser_snapshot's {url, title, snapshot,
// truncated, lines} becomes plain text, a first line of metadata
// (`page title="…" url=… lines=N truncated=false`) that ends with the page-content opening
// mark, the snapshot lines, and the closing mark, so the snapshot is not escaped into a JSON
// string; every other answer is success_result's JSON.  browser_get_tab_content's page text is
// marked as the page's (mark_page_text).  The other tools whose JSON answer holds page-written
// text (page HTML, script values, console lines, titles, element text, storage, resources,
// search hits) are marked as a whole: mark_page_fields.
tools::call_result browser_success(std::string_view tool_name, const json::value& result);

// `answer` with the page-content marks as its first and last fields ("pageText": the opening
// mark, "pageTextEnd": the closing one), every field between them as it was: the JSON stays
// what clients parse, and the page's words stand inside a boundary it cannot predict.
json::object mark_page_fields(const json::object& answer, std::string_view url);

// A WebMCP tool's result: every block of it is the page's.  The first text block starts with
// the opening mark (its own line) and the last text block ends with the closing mark, so the
// page's words stand inside one boundary the page cannot predict, the blocks (images,
// resources) kept as they are; a result without text blocks gets the marks as blocks of their
// own.  `url` is the page's, for the origin the opening mark names.
tools::call_result mark_page_content(tools::call_result result, std::string_view url);

// Text a web page wrote, between a first line that names the page's origin and says it is
// the page's words, and a last line with a random boundary the page cannot predict, so an
// agent can tell page content from the tool's own words.
std::string mark_page_text(std::string_view text, std::string_view url);

// The two marks around page text: `opening` (one line, no line break) says the text is the
// page's, names `origin` when given and the closing mark; `closing` is
// "[/page <random boundary>]".
struct page_text_marks {
  std::string opening;
  std::string closing;
};
page_text_marks page_text_marks_for(std::string_view origin);

// A failed plugin dispatch (error reply, timeout, disconnect, ...) in the original's words.
tools::call_result plugin_failure(const ext_reply& reply);
// A failed browser-tool call: "Browser tool error: <message>".  Where the extension's message
// carries what a page wrote (after "Script error: ", the value a script in the page threw),
// that part is marked (page_error_text); the extension's own words are not.
tools::call_result browser_failure(const ext_reply& reply);

// A failed WebMCP call: "WebMCP tool error: <message>", the message marked when it came from
// the extension (the page's own error reply, the tool name it chose); the server's words
// (not sent, timed out) stay unmarked.  `url` is the page's.
tools::call_result webmcp_failure(const ext_reply& reply, std::string_view url);

// Error text a page may have written: sanitize_error_text'ed and put between the page-content
// marks (opening line, text, closing line), so it cannot pass for the server's words.
std::string page_error_text(std::string_view message, std::string_view url);

// The audit error of a failed reply: ToolError code, stringified JSON-RPC code, or UNKNOWN.
audit::audit_error audit_error_of(const ext_reply& reply);

// Removes URLs, file paths and addresses from error text and caps it at 500 characters,
// so errors from pages and the extension do not leak local details to clients.
std::string sanitize_error_text(std::string_view text);

}  // namespace opentabs::app
