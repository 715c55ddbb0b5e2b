// The built-in browser tool catalog as one embedded JSON document, turned into tool_def
// values on first use.  Keeping it as data keeps the entries reviewable side by side
// and makes the JSON Schemas exactly what clients see.
//
// Document shape:
//   "defs":  reusable property schemas, referenced from a tool's "args" as "$name".
//   "tools": [{name, group, icon, summary, description, args, required?, oneOf?,
//              method?, fanOut?}]
//     method defaults to browser.<camelName> / extension.<camelName> derived from name;
//     method "" marks a tool served entirely by the server.
//     "oneOf" lists alternatives of required properties ([["selector"],["ref"]]) that
//     become an anyOf of required-sets: a target may be named by selector or by ref.
#include "tools/browser_catalog.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string>

#include "schema/lazy_validator.hpp"

namespace opentabs::tools {
namespace {

constexpr std::string_view catalog_document = R"json({
"defs": {
  "tabId": {"type":"integer","minimum":1,"maximum":2147483647,"description":"Tab ID (from browser_list_tabs)"},
  "windowId": {"type":"integer","minimum":1,"maximum":2147483647,"description":"Window ID (from browser_list_windows)"},
  "groupId": {"type":"integer","minimum":0,"maximum":2147483647,"description":"Tab group ID (from browser_list_tab_groups)"},
  "tabIds": {"type":"array","minItems":1,"maxItems":500,"items":{"type":"integer","minimum":1,"maximum":2147483647},"description":"Tab IDs"},
  "connectionId": {"type":"string","minLength":1,"maxLength":200,"description":"Browser connection (profile) to use, as reported by browser_list_tabs; defaults to the first connected browser"},
  "selector": {"type":"string","minLength":1,"maxLength":4000,"description":"CSS selector. ' >>> ' steps into a same-origin iframe or an open shadow root, e.g. 'iframe#pay >>> button.submit' or 'my-widget >>> input'"},
  "ref": {"type":"string","pattern":"^e[0-9]{1,9}@[0-9a-z]{4}$","description":"Element ref from the latest browser_snapshot of this tab (e.g. 'e12@k3f9'); use instead of selector"},
  "httpUrl": {"type":"string","minLength":1,"maxLength":8192,"pattern":"^[Hh][Tt][Tt][Pp][Ss]?://","description":"http or https URL"},
  "anyUrl": {"type":"string","minLength":1,"maxLength":8192,"description":"URL"},
  "clear": {"type":"boolean","default":false,"description":"Empty the buffer after reading"},
  "maxLength": {"type":"integer","minimum":1,"maximum":5000000,"description":"Maximum characters to return; longer output is cut and ends with a truncation marker"},
  "filePath": {"type":"string","minLength":1,"maxLength":4096,"description":"Save the result to this file and return only {savedTo, bytes}. A file name or relative path is saved in the output folder (~/.opentabs/output unless outputDirectory is set in config.json); an absolute path must lie inside the output folder or an additionalAllowedDirectories entry, outside the config folder. Symbolic links are never followed"},
  "overwrite": {"type":"boolean","default":false,"description":"Replace filePath if it already exists (otherwise an existing file is an error)"},
  "tabColor": {"type":"string","enum":["grey","blue","red","yellow","green","pink","purple","cyan","orange"],"description":"Group colour"},
  "windowState": {"type":"string","enum":["normal","minimized","maximized","fullscreen"],"description":"Window state"},
  "waitUntil": {"type":"string","enum":["load","domcontentloaded","none"],"description":"Return after the load event (load, the default), after DOMContentLoaded, or at once (none)"},
  "screenPos": {"type":"integer","minimum":-2147483648,"maximum":2147483647},
  "screenSize": {"type":"integer","minimum":1,"maximum":2147483647}
},
"tools": [
{"name":"extension_reload","group":"Extension","icon":"refresh-cw","summary":"Reload the OpenTabs extension",
 "description":"Reloads the OpenTabs browser extension in every connected browser (it reconnects by itself within seconds). Returns at once.",
 "args":{}},
{"name":"extension_get_state","fanOut":true,"group":"Extension","icon":"activity","summary":"Extension connection and plugin state",
 "description":"Diagnostic state of every connected extension: connection, server port, plugins and their tab states, offscreen document presence. One entry per connection, tagged with connectionId.",
 "args":{}},
{"name":"extension_get_logs","fanOut":true,"group":"Extension","icon":"scroll-text","summary":"Extension console logs",
 "description":"Recent log lines from the extension's background worker and offscreen document, newest first, merged over all connections.",
 "args":{"level":{"type":"string","enum":["all","debug","log","info","warn","error"],"description":"Minimum level; all (the default) = every line"},
         "source":{"type":"string","enum":["all","background","offscreen"],"description":"Only lines from this part of the extension; all (the default) = both"},
         "limit":{"type":"integer","minimum":1,"maximum":1000,"default":100,"description":"Maximum lines"},
         "since":{"type":"number","minimum":0,"description":"Only lines at or after this time (ms since epoch)"}}},
{"name":"extension_get_side_panel","group":"Extension","icon":"panel-right","summary":"Side panel state",
 "description":"State of the extension's side panel (open or not, what it shows).",
 "args":{"connectionId":"$connectionId"}},
{"name":"extension_check_adapter","fanOut":true,"group":"Extension","icon":"plug","summary":"Check a plugin's adapter in its tabs",
 "description":"For each tab matching a plugin's URL patterns: whether the plugin adapter is injected, its hash, and whether it matches the server's adapter.",
 "args":{"plugin":{"type":"string","minLength":1,"maxLength":214,"description":"Plugin name"}},"required":["plugin"]},
{"name":"extension_force_reconnect","group":"Extension","icon":"plug-zap","summary":"Reconnect the extension's socket",
 "description":"Makes the extension close and reopen its WebSocket to the server.",
 "args":{"connectionId":"$connectionId"}},

{"name":"browser_list_tabs","fanOut":true,"group":"Tabs","icon":"layout-list","summary":"List open tabs",
 "description":"Every open tab in every connected browser: id, title, url, active, windowId and connectionId.",
 "args":{}},
{"name":"browser_open_tab","group":"Tabs","icon":"square-plus","summary":"Open a tab",
 "description":"Opens an http(s) URL in a new tab and returns its id. The tab opens in the background unless active is true, so the user's current tab keeps focus.",
 "args":{"url":"$httpUrl","active":{"type":"boolean","default":false,"description":"Make the new tab the active tab of its window"},"connectionId":"$connectionId"},"required":["url"]},
{"name":"browser_close_tab","group":"Tabs","icon":"square-x","summary":"Close a tab",
 "description":"Closes a tab.",
 "args":{"tabId":"$tabId"},"required":["tabId"]},
{"name":"browser_navigate_tab","group":"Tabs","icon":"navigation","summary":"Navigate a tab",
 "description":"Loads an http(s) URL in an existing tab without activating it, and by default returns once the page has loaded (at most 20 s; then the answer says timedOut).",
 "args":{"tabId":"$tabId","url":"$httpUrl","waitUntil":"$waitUntil"},"required":["tabId","url"]},
{"name":"browser_go_back","group":"Tabs","icon":"arrow-left","summary":"Go back",
 "description":"Goes back one step in the tab's history and, by default, waits for the page to load. Refs from earlier snapshots no longer apply.",
 "args":{"tabId":"$tabId","waitUntil":"$waitUntil"},"required":["tabId"]},
{"name":"browser_go_forward","group":"Tabs","icon":"arrow-right","summary":"Go forward",
 "description":"Goes forward one step in the tab's history and, by default, waits for the page to load.",
 "args":{"tabId":"$tabId","waitUntil":"$waitUntil"},"required":["tabId"]},
{"name":"browser_reload_tab","group":"Tabs","icon":"rotate-cw","summary":"Reload a tab",
 "description":"Reloads the tab (optionally bypassing the cache) and, by default, waits for the page to load.",
 "args":{"tabId":"$tabId","bypassCache":{"type":"boolean","description":"Reload without the HTTP cache"},"waitUntil":"$waitUntil"},"required":["tabId"]},
{"name":"browser_focus_tab","group":"Tabs","icon":"focus","summary":"Focus a tab",
 "description":"Activates the tab and focuses its window. This takes focus from the user: use it only when asked to show a tab.",
 "args":{"tabId":"$tabId"},"required":["tabId"]},
{"name":"browser_get_tab_info","group":"Tabs","icon":"info","summary":"Tab details",
 "description":"Status, url, title, window, index, pinned and group of one tab.",
 "args":{"tabId":"$tabId"},"required":["tabId"]},
{"name":"browser_list_tab_groups","group":"Tab groups","icon":"group","summary":"List tab groups",
 "description":"Tab groups (id, title, colour, collapsed, windowId), optionally of one window.",
 "args":{"windowId":"$windowId"}},
{"name":"browser_create_tab_group","group":"Tab groups","icon":"folder-plus","summary":"Group tabs",
 "description":"Puts tabs into a new tab group and returns the group id.",
 "args":{"tabIds":"$tabIds","title":{"type":"string","maxLength":200,"description":"Group title"},"color":"$tabColor"},"required":["tabIds"]},
{"name":"browser_add_tabs_to_group","group":"Tab groups","icon":"folder-input","summary":"Add tabs to a group",
 "description":"Moves tabs into an existing tab group.",
 "args":{"groupId":"$groupId","tabIds":"$tabIds"},"required":["groupId","tabIds"]},
{"name":"browser_remove_tabs_from_group","group":"Tab groups","icon":"folder-output","summary":"Ungroup tabs",
 "description":"Removes tabs from whatever group they are in.",
 "args":{"tabIds":"$tabIds"},"required":["tabIds"]},
{"name":"browser_update_tab_group","group":"Tab groups","icon":"folder-pen","summary":"Update a tab group",
 "description":"Renames, recolours, collapses or expands a tab group.",
 "args":{"groupId":"$groupId","title":{"type":"string","maxLength":200,"description":"New title"},"color":"$tabColor","collapsed":{"type":"boolean","description":"Collapse (true) or expand (false)"},"connectionId":"$connectionId"},"required":["groupId"]},
{"name":"browser_list_tabs_in_group","group":"Tab groups","icon":"folder-open","summary":"Tabs in a group",
 "description":"The tabs that belong to a tab group.",
 "args":{"groupId":"$groupId","connectionId":"$connectionId"},"required":["groupId"]},

{"name":"browser_snapshot","group":"Page","icon":"scan-text","summary":"Accessibility snapshot with element refs",
 "description":"Compact accessibility-style outline of the page: one line per element with role, name, value and states, and a ref (e12@k3f9) that click/type/hover/select/scroll/press_key/wait_for_element accept instead of a selector; refs are valid only for the document they came from (after a navigation or reload, snapshot again). Covers iframes (cross-origin too) and shadow roots (closed too); refs only on what can be acted on. Returned as text: a first line 'page title=… url=… lines=N truncated=…', then the snapshot. Scope it with selector or ref; output stops at maxChars with an explicit truncation marker. Does not activate the tab.",
 "args":{"tabId":"$tabId","selector":"$selector","ref":"$ref",
         "maxChars":{"type":"integer","minimum":200,"maximum":200000,"default":20000,"description":"Hard cap on the snapshot text"},
         "interactiveOnly":{"type":"boolean","default":false,"description":"Only list elements a user can act on (links, buttons, fields) and headings"}},
 "required":["tabId"]},
{"name":"browser_execute_script","group":"Page","icon":"terminal","summary":"Run JavaScript in a page",
 "description":"Runs JavaScript in the page (main world), console style: a bare expression returns its value; a statement body may use return and await. Results over 50000 characters are truncated. Does not activate the tab.",
 "args":{"tabId":"$tabId","code":{"type":"string","minLength":1,"maxLength":200000,"description":"JavaScript expression or statements"}},"required":["tabId","code"]},
{"name":"browser_screenshot_tab","group":"Page","icon":"camera","summary":"Screenshot a tab",
 "description":"PNG of the tab's visible viewport, of one element (selector or ref), or of the full page (fullPage), returned as an image. An active tab's viewport is captured directly; background tabs, elements and full pages through the debugger, without activating the tab or focusing its window. Full pages are capped at 4096x16384 CSS px and large images scaled down. With filePath the PNG is saved in the output folder (mode 0600; an existing file only with overwrite: true) and only its path and size are returned. At most 2 screenshots per second.",
 "args":{"tabId":"$tabId","selector":"$selector","ref":"$ref","fullPage":{"type":"boolean","description":"Capture the whole scrollable page instead of the viewport"},"filePath":"$filePath","overwrite":"$overwrite"},"required":["tabId"]},
{"name":"browser_get_tab_content","group":"Page","icon":"file-text","summary":"Visible text of a page",
 "description":"Visible text of the page or of one element, with title and url.",
 "args":{"tabId":"$tabId","selector":{"$ref":"selector","default":"body"},"maxLength":{"$ref":"maxLength","default":50000}},"required":["tabId"]},
{"name":"browser_get_page_html","group":"Page","icon":"code","summary":"HTML of a page",
 "description":"Outer HTML of the page or of one element, with title and url.",
 "args":{"tabId":"$tabId","selector":{"$ref":"selector","default":"html"},"maxLength":{"$ref":"maxLength","default":200000}},"required":["tabId"]},
{"name":"browser_wait_for_element","group":"Page","icon":"hourglass","summary":"Wait for an element",
 "description":"Waits until a selector (or snapshot ref) matches an element, optionally a visible one; fails with a clear error after timeout.",
 "args":{"tabId":"$tabId","selector":"$selector","ref":"$ref",
         "timeout":{"type":"integer","minimum":1,"maximum":300000,"default":10000,"description":"Milliseconds to wait (at most 25000 are used: the call must answer within 30 s)"},
         "visible":{"type":"boolean","default":false,"description":"Also require the element to be visible"}},
 "required":["tabId"],"oneOf":[["selector"],["ref"]]},
{"name":"browser_wait_for_text","group":"Page","icon":"text-search","summary":"Wait for text",
 "description":"Waits until a text appears in the page's visible text (text) or is gone from it (textGone), iframes and shadow roots included; fails with a clear error after timeout.",
 "args":{"tabId":"$tabId","text":{"type":"string","minLength":1,"maxLength":10000,"description":"Text to wait for"},
         "textGone":{"type":"string","minLength":1,"maxLength":10000,"description":"Text to wait to disappear"},
         "timeout":{"type":"integer","minimum":1,"maximum":300000,"default":10000,"description":"Milliseconds to wait (at most 25000 are used)"}},
 "required":["tabId"],"oneOf":[["text"],["textGone"]]},
{"name":"browser_query_elements","group":"Page","icon":"list-tree","summary":"Find elements",
 "description":"Elements matching a selector: tag, text preview, visibility, bounding box and chosen attributes.",
 "args":{"tabId":"$tabId","selector":"$selector",
         "limit":{"type":"integer","minimum":1,"maximum":1000,"default":100,"description":"Maximum elements"},
         "attributes":{"type":"array","maxItems":50,"items":{"type":"string","minLength":1,"maxLength":200},"default":["id","class","href","src","type","name","value","placeholder"],"description":"Attribute names to include"}},
 "required":["tabId","selector"]},
{"name":"browser_get_console_logs","group":"Page","icon":"square-terminal","summary":"Console messages of a tab",
 "description":"Console messages and uncaught exceptions of the tab's page since it loaded (always recorded, no debugger needed); while browser_enable_network_capture is on, the debugger's record instead.",
 "args":{"tabId":"$tabId","clear":"$clear","level":{"type":"string","enum":["all","debug","log","info","warn","error"],"description":"Only this level; all (the default) = every message"}},"required":["tabId"]},
{"name":"browser_clear_console_logs","group":"Page","icon":"eraser","summary":"Clear captured console messages",
 "description":"Empties the captured console buffer of a tab.",
 "args":{"tabId":"$tabId"},"required":["tabId"]},
{"name":"browser_list_resources","group":"Page","icon":"files","summary":"Resources a page loaded",
 "description":"Documents, scripts, stylesheets, images, fonts and other resources of the page's frames. Uses the debugger briefly.",
 "args":{"tabId":"$tabId","type":{"type":"string","enum":["Document","Stylesheet","Image","Media","Font","Script","TextTrack","XHR","Fetch","Manifest","Other"],"description":"Only this resource type"}},"required":["tabId"]},
{"name":"browser_get_resource_content","group":"Page","icon":"file-code","summary":"Content of a loaded resource",
 "description":"Body of one resource the page loaded (from browser_list_resources). Binary content comes back base64. Uses the debugger briefly.",
 "args":{"tabId":"$tabId","url":"$anyUrl","maxLength":{"$ref":"maxLength","default":100000}},"required":["tabId","url"]},

{"name":"browser_get_storage","group":"Storage","icon":"database","summary":"Read localStorage/sessionStorage",
 "description":"Entries of the page's localStorage or sessionStorage, or one key.",
 "args":{"tabId":"$tabId","storageType":{"type":"string","enum":["local","session"],"default":"local","description":"Which storage"},"key":{"type":"string","maxLength":4096,"description":"Only this key"}},"required":["tabId"]},
{"name":"browser_get_cookies","group":"Storage","icon":"cookie","summary":"Cookies for a URL",
 "description":"Cookies the browser would send to a URL, HttpOnly ones included.",
 "args":{"url":"$httpUrl","name":{"type":"string","maxLength":4096,"description":"Only this cookie"}},"required":["url"]},
{"name":"browser_set_cookie","group":"Storage","icon":"cookie","summary":"Set a cookie",
 "description":"Creates or overwrites a cookie for a URL.",
 "args":{"url":"$httpUrl","name":{"type":"string","minLength":1,"maxLength":4096},"value":{"type":"string","maxLength":4096},
         "domain":{"type":"string","maxLength":253},"path":{"type":"string","maxLength":4096},"secure":{"type":"boolean"},"httpOnly":{"type":"boolean"},
         "expirationDate":{"type":"number","minimum":0,"description":"Expiry in seconds since epoch; omitted = session cookie"}},
 "required":["url","name","value"]},
{"name":"browser_delete_cookies","group":"Storage","icon":"cookie","summary":"Delete a cookie",
 "description":"Removes a cookie for a URL.",
 "args":{"url":"$httpUrl","name":{"type":"string","minLength":1,"maxLength":4096}},"required":["url","name"]},

{"name":"browser_click_element","group":"Interaction","icon":"mouse-pointer-click","summary":"Click an element",
 "description":"Trusted mouse click at the centre of an element named by selector or snapshot ref (iframes and shadow roots included); scrolls it into view first. Right, middle and double clicks too. Does not activate the tab. Uses the debugger, which detaches again after a short idle period.",
 "args":{"tabId":"$tabId","selector":"$selector","ref":"$ref",
         "button":{"type":"string","enum":["left","right","middle"],"description":"Mouse button (left when omitted)"},
         "doubleClick":{"type":"boolean","description":"Double-click"}},
 "required":["tabId"],"oneOf":[["selector"],["ref"]]},
{"name":"browser_fill_form","group":"Interaction","icon":"text-cursor-input","summary":"Fill several form fields",
 "description":"Fills several fields in one call: text inputs and textareas get the value, selects choose the option with that value or label, checkboxes and radios take true or false. Every field is found before any is changed; input and change events fire as for typing.",
 "args":{"tabId":"$tabId",
         "fields":{"type":"array","minItems":1,"maxItems":100,"description":"Fields to fill, in order",
                   "items":{"type":"object","properties":{"selector":{"type":"string","minLength":1,"maxLength":4000,"description":"CSS selector of the field"},"ref":{"type":"string","pattern":"^e[0-9]{1,9}@[0-9a-z]{4}$","description":"Snapshot ref of the field"},
                            "value":{"anyOf":[{"type":"string","maxLength":100000},{"type":"boolean"}],"description":"Text, option value or label, or true/false for a checkbox or radio"}},
                            "required":["value"],"anyOf":[{"required":["selector"]},{"required":["ref"]}],"additionalProperties":false}}},
 "required":["tabId","fields"]},
{"name":"browser_drag_element","group":"Interaction","icon":"move","summary":"Drag and drop",
 "description":"Drags one element onto another (each by selector or snapshot ref) with trusted mouse and HTML5 drag events. Does not activate the tab. Uses the debugger briefly.",
 "args":{"tabId":"$tabId","fromSelector":"$selector","fromRef":"$ref","toSelector":"$selector","toRef":"$ref"},
 "required":["tabId"],"oneOf":[["fromSelector","toSelector"],["fromSelector","toRef"],["fromRef","toSelector"],["fromRef","toRef"]]},
{"name":"browser_upload_file","group":"Interaction","icon":"upload","summary":"Upload files into a file input",
 "description":"Sets the files of an <input type=file> (by selector or ref) as if the user chose them. Each path is a file name or relative path in the output folder, or an absolute path inside the output folder or an additionalAllowedDirectories entry (never the config folder's own files); symbolic links are not followed. Uses the debugger briefly.",
 "args":{"tabId":"$tabId","selector":"$selector","ref":"$ref",
         "paths":{"type":"array","minItems":1,"maxItems":20,"items":{"type":"string","minLength":1,"maxLength":4096},"description":"Files to upload"}},
 "required":["tabId","paths"],"oneOf":[["selector"],["ref"]]},
{"name":"browser_type_text","group":"Interaction","icon":"keyboard","summary":"Type into a field",
 "description":"Focuses an input, textarea or contenteditable (by selector or ref) and enters text, firing input and change events. Does not activate the tab.",
 "args":{"tabId":"$tabId","selector":"$selector","ref":"$ref","text":{"type":"string","maxLength":100000},"clear":{"type":"boolean","default":false,"description":"Replace the current value instead of appending"}},
 "required":["tabId","text"],"oneOf":[["selector"],["ref"]]},
{"name":"browser_select_option","group":"Interaction","icon":"list-checks","summary":"Choose an option",
 "description":"Selects an option of a <select> (by selector or ref) by value or by visible label.",
 "args":{"tabId":"$tabId","selector":"$selector","ref":"$ref","value":{"type":"string","maxLength":10000},"label":{"type":"string","maxLength":10000}},
 "required":["tabId"],"oneOf":[["selector"],["ref"]]},
{"name":"browser_press_key","group":"Interaction","icon":"keyboard","summary":"Press a key",
 "description":"Presses a key (Enter, Tab, Escape, ArrowDown, a, ...) with optional modifiers on the focused element, or on the element named by selector or ref. Does not activate the tab. Uses the debugger, which detaches after an idle period.",
 "args":{"tabId":"$tabId","key":{"type":"string","minLength":1,"maxLength":40},"selector":"$selector","ref":"$ref",
         "modifiers":{"description":"Modifier keys to hold: {\"ctrl\":true,\"shift\":true} (also alt, meta), or a list of names such as [\"Control\",\"Shift\"]",
                     "anyOf":[{"type":"object","properties":{"shift":{"type":"boolean"},"ctrl":{"type":"boolean"},"alt":{"type":"boolean"},"meta":{"type":"boolean"}},"additionalProperties":false},
                              {"type":"array","maxItems":4,"uniqueItems":true,"items":{"type":"string","enum":["Alt","Control","Meta","Shift"]}}]}},
 "required":["tabId","key"]},
{"name":"browser_scroll","group":"Interaction","icon":"arrow-down-up","summary":"Scroll",
 "description":"Scrolls the page or a container by a distance in a direction, to its top or bottom, or scrolls an element (selector or ref) into view.",
 "args":{"tabId":"$tabId","selector":"$selector","ref":"$ref",
         "direction":{"type":"string","enum":["up","down","left","right"],"description":"Scroll direction"},
         "distance":{"type":"integer","minimum":1,"maximum":1000000,"description":"Pixels; defaults to one viewport"},
         "position":{"description":"Absolute scroll offset {\"x\":0,\"y\":1200} in pixels, or \"top\"/\"bottom\"",
                    "anyOf":[{"type":"object","properties":{"x":{"type":"number","minimum":-1000000000,"maximum":1000000000},"y":{"type":"number","minimum":-1000000000,"maximum":1000000000}},"additionalProperties":false},
                             {"type":"string","enum":["top","bottom"]}]},
         "container":{"$ref":"selector","description":"Scrollable container to scroll instead of the page"}},
 "required":["tabId"]},
{"name":"browser_hover_element","group":"Interaction","icon":"pointer","summary":"Hover over an element",
 "description":"Moves the pointer over an element (selector or ref), firing pointerover/enter/move and mouseover/enter/move events. Does not activate the tab.",
 "args":{"tabId":"$tabId","selector":"$selector","ref":"$ref"},"required":["tabId"],"oneOf":[["selector"],["ref"]]},
{"name":"browser_handle_dialog","group":"Interaction","icon":"message-square-warning","summary":"Answer an alert/confirm/prompt",
 "description":"Accepts or dismisses the JavaScript dialog open in a tab.",
 "args":{"tabId":"$tabId","action":{"type":"string","enum":["accept","dismiss"]},"promptText":{"type":"string","maxLength":10000}},"required":["tabId","action"]},

{"name":"browser_enable_network_capture","group":"Network","icon":"radio-tower","summary":"Start recording network traffic",
 "description":"Starts recording a tab's requests and responses (with text bodies), WebSocket frames and console messages. Keeps the debugger attached until browser_disable_network_capture. Records auth headers and tokens: use only when the user asks.",
 "args":{"tabId":"$tabId","maxRequests":{"type":"integer","minimum":1,"maximum":5000,"default":100,"description":"Requests kept (oldest dropped)"},
         "urlFilter":{"type":"string","maxLength":2000,"description":"Only record URLs containing this text"},
         "maxConsoleLogs":{"type":"integer","minimum":1,"maximum":10000,"default":500,"description":"Console messages kept"},
         "maxWsFrames":{"type":"integer","minimum":1,"maximum":10000,"default":200,"description":"WebSocket frames kept"}},
 "required":["tabId"]},
{"name":"browser_get_network_requests","group":"Network","icon":"network","summary":"Requests of a tab (index)",
 "description":"Index of the tab's requests, one line each: id method status type url size. Always recorded by the page (no debugger; no headers or bodies); while browser_enable_network_capture is on, the debugger's record with both. Details of one: browser_get_network_request.",
 "args":{"tabId":"$tabId","clear":"$clear"},"required":["tabId"]},
{"name":"browser_get_network_request","group":"Network","icon":"file-search","summary":"One request in detail",
 "description":"One request from browser_get_network_requests by id: status, size, timing; headers (secrets redacted) and bodies when network capture recorded them.",
 "args":{"tabId":"$tabId","requestId":{"type":"string","minLength":1,"maxLength":200,"description":"Id from browser_get_network_requests"}},"required":["tabId","requestId"]},
{"name":"browser_get_websocket_frames","method":"browser.getWebSocketFrames","group":"Network","icon":"arrow-left-right","summary":"Recorded WebSocket frames",
 "description":"WebSocket frames recorded since browser_enable_network_capture.",
 "args":{"tabId":"$tabId","clear":"$clear"},"required":["tabId"]},
{"name":"browser_export_har","method":"","group":"Network","icon":"download","summary":"Export traffic as HAR",
 "description":"The recorded traffic of a tab as a HAR 1.2 document (optionally with WebSocket frames as extra entries). With filePath the HAR is saved in the output folder (mode 0600; an existing file only with overwrite: true) and only its path and size are returned.",
 "args":{"tabId":"$tabId","clear":"$clear","includeWebSocketFrames":{"type":"boolean","default":false},"filePath":"$filePath","overwrite":"$overwrite"},"required":["tabId"]},
{"name":"browser_disable_network_capture","group":"Network","icon":"radio","summary":"Stop recording network traffic",
 "description":"Stops recording for a tab, drops its buffers and detaches the debugger when nothing else needs it.",
 "args":{"tabId":"$tabId"},"required":["tabId"]},
{"name":"browser_intercept_requests","group":"Network","icon":"shield-half","summary":"Pause matching requests",
 "description":"Pauses requests whose URL matches a pattern (* and ? wildcards) so they can be answered with browser_fulfill_request or failed with browser_fail_request. Paused requests are listed in the result of browser_get_network_requests under pausedRequests.",
 "args":{"tabId":"$tabId","urlPatterns":{"type":"array","minItems":1,"maxItems":50,"items":{"type":"string","minLength":1,"maxLength":2000},"default":["*"]}},"required":["tabId"]},
{"name":"browser_fulfill_request","group":"Network","icon":"reply","summary":"Answer a paused request",
 "description":"Answers a paused request with a response of your choosing.",
 "args":{"tabId":"$tabId","requestId":{"type":"string","minLength":1,"maxLength":200},"status":{"type":"integer","minimum":100,"maximum":599},
         "headers":{"type":"object","additionalProperties":{"type":"string","maxLength":16384},"description":"Response headers"},
         "body":{"type":"string","maxLength":10000000}},
 "required":["tabId","requestId","status"]},
{"name":"browser_fail_request","group":"Network","icon":"ban","summary":"Fail a paused request",
 "description":"Makes a paused request fail with a network error.",
 "args":{"tabId":"$tabId","requestId":{"type":"string","minLength":1,"maxLength":200},
         "errorReason":{"type":"string","enum":["Failed","Aborted","TimedOut","AccessDenied","ConnectionClosed","ConnectionReset","ConnectionRefused","ConnectionAborted","ConnectionFailed","NameNotResolved","InternetDisconnected","AddressUnreachable","BlockedByClient","BlockedByResponse"],"default":"Failed"}},
 "required":["tabId","requestId"]},
{"name":"browser_stop_intercepting","group":"Network","icon":"shield-off","summary":"Stop intercepting",
 "description":"Stops interception; requests still paused continue unchanged.",
 "args":{"tabId":"$tabId"},"required":["tabId"]},
{"name":"browser_throttle_network","group":"Network","icon":"gauge","summary":"Simulate a slow network",
 "description":"Simulates a slow or offline network for a tab, by preset or explicit latency and throughput.",
 "args":{"tabId":"$tabId","preset":{"type":"string","enum":["offline","slow-3g","3g","4g","wifi","fast-3g"],"description":"Chrome DevTools presets; overrides latency and throughput"},
         "latency":{"type":"number","minimum":0,"maximum":60000,"description":"Added round-trip latency in ms"},
         "downloadThroughput":{"type":"number","minimum":-1,"description":"Bytes per second; -1 = unlimited"},
         "uploadThroughput":{"type":"number","minimum":-1,"description":"Bytes per second; -1 = unlimited"}},
 "required":["tabId"]},
{"name":"browser_clear_network_throttle","group":"Network","icon":"gauge","summary":"Stop simulating a slow network",
 "description":"Removes network throttling from a tab.",
 "args":{"tabId":"$tabId"},"required":["tabId"]},

{"name":"browser_notify","method":"browser.showNotification","group":"Notifications","icon":"bell","summary":"Desktop notification",
 "description":"Shows a desktop notification; clicking it opens url (or the side panel).",
 "args":{"title":{"type":"string","minLength":1},"message":{"type":"string","maxLength":2000},
         "iconUrl":{"type":"string","maxLength":8192},"requireInteraction":{"type":"boolean","default":false},
         "contextMessage":{"type":"string","maxLength":500},"url":"$httpUrl"},
 "required":["title","message"]},

{"name":"browser_emulate_device","group":"Emulation","icon":"smartphone","summary":"Emulate a device",
 "description":"Overrides a tab's viewport size, device pixel ratio, mobile/touch mode and user agent.",
 "args":{"tabId":"$tabId","width":{"type":"integer","minimum":1,"maximum":10000},"height":{"type":"integer","minimum":1,"maximum":10000},
         "deviceScaleFactor":{"type":"number","minimum":0,"maximum":100,"default":1,"description":"Device pixel ratio; 0 keeps the screen's own"},"mobile":{"type":"boolean","default":false},
         "userAgent":{"type":"string","minLength":1,"maxLength":2000}},
 "required":["tabId","width","height"]},
{"name":"browser_set_geolocation","group":"Emulation","icon":"map-pin","summary":"Fake the location",
 "description":"Overrides the geolocation a tab reports.",
 "args":{"tabId":"$tabId","latitude":{"type":"number","minimum":-90,"maximum":90},"longitude":{"type":"number","minimum":-180,"maximum":180},
         "accuracy":{"type":"number","minimum":0,"default":100,"description":"Metres"}},
 "required":["tabId","latitude","longitude"]},
{"name":"browser_set_media_features","group":"Emulation","icon":"sun-moon","summary":"Emulate CSS media features",
 "description":"Forces CSS media features such as prefers-color-scheme or prefers-reduced-motion for a tab.",
 "args":{"tabId":"$tabId","features":{"type":"array","minItems":1,"maxItems":20,
         "items":{"type":"object","properties":{"name":{"type":"string","minLength":1,"maxLength":100},"value":{"type":"string","maxLength":100}},"required":["name","value"],"additionalProperties":false},
         "description":"e.g. [{\"name\":\"prefers-color-scheme\",\"value\":\"dark\"}]"}},
 "required":["tabId","features"]},
{"name":"browser_emulate_vision_deficiency","group":"Emulation","icon":"eye-off","summary":"Simulate a vision deficiency",
 "description":"Renders a tab as seen with a colour vision deficiency or blur.",
 "args":{"tabId":"$tabId","type":{"type":"string","enum":["none","blurredVision","reducedContrast","achromatopsia","deuteranopia","protanopia","tritanopia"]}},
 "required":["tabId","type"]},
{"name":"browser_clear_emulation","group":"Emulation","icon":"rotate-ccw","summary":"Clear all emulation",
 "description":"Removes device, geolocation, media and vision emulation from a tab.",
 "args":{"tabId":"$tabId"},"required":["tabId"]},

{"name":"browser_get_element_styles","group":"CSS","icon":"paintbrush","summary":"Computed and matched styles",
 "description":"Computed style (non-default properties) and matching CSS rules of an element.",
 "args":{"tabId":"$tabId","selector":"$selector"},"required":["tabId","selector"]},
{"name":"browser_force_pseudo_state","group":"CSS","icon":"mouse-pointer","summary":"Force :hover/:focus",
 "description":"Forces pseudo-classes (:hover, :focus, ...) on an element; an empty list removes them.",
 "args":{"tabId":"$tabId","selector":"$selector","pseudoClasses":{"type":"array","maxItems":12,"uniqueItems":true,"items":{"type":"string","enum":[":active",":focus",":focus-visible",":focus-within",":hover",":visited","active","focus","focus-visible","focus-within","hover","visited"]},"description":"e.g. [\":hover\"]; an empty list removes forced states"}},
 "required":["tabId","selector","pseudoClasses"]},
{"name":"browser_get_css_coverage","group":"CSS","icon":"percent","summary":"Used vs unused CSS",
 "description":"For each stylesheet: total size, bytes used by the current page and the used percentage.",
 "args":{"tabId":"$tabId"},"required":["tabId"]},

{"name":"browser_list_windows","group":"Windows","icon":"app-window","summary":"List windows",
 "description":"All browser windows with bounds, state, focus and their tabs.",
 "args":{}},
{"name":"browser_create_window","group":"Windows","icon":"app-window","summary":"Open a window",
 "description":"Opens a new window. It does not take focus unless focused is true.",
 "args":{"url":"$httpUrl","width":"$screenSize","height":"$screenSize","left":"$screenPos","top":"$screenPos","state":"$windowState",
         "incognito":{"type":"boolean","default":false},"focused":{"type":"boolean","default":false}}},
{"name":"browser_update_window","group":"Windows","icon":"move","summary":"Move, resize or focus a window",
 "description":"Moves, resizes, minimises, maximises or focuses a window (focused:true takes focus from the user).",
 "args":{"windowId":"$windowId","state":"$windowState","left":"$screenPos","top":"$screenPos","width":"$screenSize","height":"$screenSize","focused":{"type":"boolean"}},
 "required":["windowId"]},
{"name":"browser_close_window","group":"Windows","icon":"x","summary":"Close a window",
 "description":"Closes a window and its tabs.",
 "args":{"windowId":"$windowId"},"required":["windowId"]},
{"name":"browser_download_file","group":"Downloads","icon":"download","summary":"Download a file",
 "description":"Starts a download and returns its id.",
 "args":{"url":"$httpUrl","filename":{"type":"string","minLength":1,"maxLength":1000,"description":"Path relative to the downloads folder"},"saveAs":{"type":"boolean","default":false}},
 "required":["url"]},
{"name":"browser_list_downloads","group":"Downloads","icon":"list","summary":"Recent downloads",
 "description":"Recent downloads, newest first, optionally filtered by text or state.",
 "args":{"query":{"type":"string","maxLength":1000},"state":{"type":"string","enum":["in_progress","interrupted","complete"]},"limit":{"type":"integer","minimum":1,"maximum":1000,"default":20}}},
{"name":"browser_get_download_status","group":"Downloads","icon":"loader","summary":"Download progress",
 "description":"State, bytes received, total size, file name and error of one download.",
 "args":{"downloadId":{"type":"integer","minimum":0,"maximum":2147483647}},"required":["downloadId"]},
{"name":"browser_search_history","group":"History","icon":"history","summary":"Search history",
 "description":"Pages in the browsing history matching text, optionally within a time range.",
 "args":{"query":{"type":"string","maxLength":1000,"description":"Text to match; empty matches everything"},"maxResults":{"type":"integer","minimum":1,"maximum":10000,"default":100},
         "startTime":{"anyOf":[{"type":"string","minLength":1,"maxLength":100},{"type":"number","minimum":0,"maximum":8640000000000000}],"description":"Only pages visited after this time: an ISO date string (2024-01-01T00:00:00Z) or ms since epoch"},
         "endTime":{"anyOf":[{"type":"string","minLength":1,"maxLength":100},{"type":"number","minimum":0,"maximum":8640000000000000}],"description":"Only pages visited before this time: an ISO date string or ms since epoch"}},
 "required":["query"]},
{"name":"browser_get_visits","group":"History","icon":"footprints","summary":"Visits to a URL",
 "description":"Every recorded visit to a URL with time and transition type.",
 "args":{"url":"$anyUrl"},"required":["url"]},
{"name":"browser_search_bookmarks","group":"Bookmarks","icon":"bookmark","summary":"Search bookmarks",
 "description":"Bookmarks whose title or URL matches text.",
 "args":{"query":{"type":"string","minLength":1,"maxLength":1000}},"required":["query"]},
{"name":"browser_create_bookmark","group":"Bookmarks","icon":"bookmark-plus","summary":"Add a bookmark",
 "description":"Adds a bookmark, optionally inside a folder.",
 "args":{"title":{"type":"string","maxLength":1000},"url":"$httpUrl","parentId":{"type":"string","minLength":1,"maxLength":100}},"required":["title","url"]},
{"name":"browser_list_bookmark_tree","group":"Bookmarks","icon":"folder-tree","summary":"Bookmark tree",
 "description":"The bookmark tree, or the subtree of one folder, down to maxDepth.",
 "args":{"parentId":{"type":"string","minLength":1,"maxLength":100},"maxDepth":{"type":"integer","minimum":1,"maximum":50,"default":5}}},
{"name":"browser_get_recently_closed","group":"Sessions","icon":"archive-restore","summary":"Recently closed tabs and windows",
 "description":"Recently closed tabs and windows, newest first, with the sessionId to restore them.",
 "args":{"maxResults":{"type":"integer","minimum":1,"maximum":25,"default":10}}},
{"name":"browser_restore_session","group":"Sessions","icon":"undo-2","summary":"Reopen a closed tab or window",
 "description":"Reopens a recently closed tab or window by sessionId.",
 "args":{"sessionId":{"type":"string","minLength":1,"maxLength":200}},"required":["sessionId"]},
{"name":"browser_clear_site_data","group":"Site data","icon":"trash-2","summary":"Clear a site's data",
 "description":"Wipes cookies, localStorage, cache, IndexedDB and service workers of one origin (each can be turned off).",
 "args":{"origin":{"type":"string","minLength":1,"maxLength":2000,"pattern":"^[Hh][Tt][Tt][Pp][Ss]?://[^/]+$","description":"Origin such as https://example.com (no path)"},
         "cookies":{"type":"boolean","default":true},"localStorage":{"type":"boolean","default":true},"cache":{"type":"boolean","default":true},
         "indexedDB":{"type":"boolean","default":true},"serviceWorkers":{"type":"boolean","default":true}},
 "required":["origin"]},

{"name":"plugin_list_tabs","method":"","group":"Plugins","icon":"layout-grid","summary":"Tabs of each plugin",
 "description":"For one plugin or all: its state and matching tabs (tabId, url, title, ready, connectionId). Answered by the server without a browser round trip.",
 "args":{"plugin":{"type":"string","minLength":1,"maxLength":214,"description":"Plugin name"}}},
{"name":"plugin_analyze_site","method":"","group":"Plugins","icon":"scan-search","summary":"Analyse a site for a new plugin",
 "description":"Opens the URL in a background tab, records its traffic, inspects auth, APIs, frameworks, globals, forms and storage, closes the tab and reports suggested plugin tools.",
 "args":{"url":"$httpUrl","waitSeconds":{"type":"integer","minimum":0,"maximum":25,"default":5,"description":"Seconds to wait after load"}},
 "required":["url"]}
]
})json";

[[noreturn]] void catalog_bug(const std::string& what) {
  // The catalog is compiled into the binary; a broken entry is a programming error that
  // every test run hits at once.
  throw std::logic_error("browser tool catalog: " + what);
}

// "browser_list_tab_groups" -> "browser.listTabGroups"
std::string derive_method(std::string_view name) {
  auto underscore = name.find('_');
  if (underscore == std::string_view::npos) catalog_bug("tool name without prefix: " + std::string(name));
  std::string method(name.substr(0, underscore));
  method += '.';
  bool upper = false;
  for (char c : name.substr(underscore + 1)) {
    if (c == '_') {
      upper = true;
      continue;
    }
    method += upper ? static_cast<char>(c - 'a' + 'A') : c;
    upper = false;
  }
  return method;
}

// A property spec is a def reference ("$tabId"), a def with overrides
// ({"$ref":"maxLength","default":50000}) or a literal schema.
json::object resolve_property(const json::value& spec, const json::object& defs, std::string_view tool) {
  auto lookup = [&](std::string_view name) -> json::object {
    const json::object* def = json::get_object(defs, name);
    if (!def) catalog_bug(std::string(tool) + ": unknown def " + std::string(name));
    return *def;
  };
  if (spec.is_string()) {
    std::string_view s = spec.as_string();
    if (s.empty() || s.front() != '$') catalog_bug(std::string(tool) + ": property spec must start with $");
    return lookup(s.substr(1));
  }
  if (!spec.is_object()) catalog_bug(std::string(tool) + ": property spec must be a string or object");
  const json::object& literal = spec.as_object();
  const json::string* base = json::get_string(literal, "$ref");
  if (!base) return literal;
  json::object merged = lookup(*base);
  for (const auto& [key, v] : literal) {
    if (key != "$ref") merged[key] = v;
  }
  return merged;
}

json::object build_schema(const json::object& entry, const json::object& defs, std::string_view tool) {
  json::object properties;
  if (const json::object* args = json::get_object(entry, "args")) {
    for (const auto& [arg, spec] : *args) properties[arg] = resolve_property(spec, defs, tool);
  }
  json::object schema{{"type", "object"}, {"properties", std::move(properties)}};
  if (const json::array* required = json::get_array(entry, "required")) {
    for (const auto& r : *required) {
      if (!r.is_string() || !schema["properties"].as_object().contains(r.as_string()))
        catalog_bug(std::string(tool) + ": required names an unknown property");
    }
    schema["required"] = *required;
  }
  if (const json::array* alternatives = json::get_array(entry, "oneOf")) {
    json::array any_of;
    for (const auto& alt : *alternatives) {
      if (!alt.is_array()) catalog_bug(std::string(tool) + ": oneOf entries are arrays of names");
      any_of.push_back(json::object{{"required", alt}});
    }
    schema["anyOf"] = std::move(any_of);
  }
  schema["additionalProperties"] = false;
  return schema;
}

std::string required_string(const json::object& entry, std::string_view key, std::string_view tool) {
  const json::string* s = json::get_string(entry, key);
  if (!s) catalog_bug(std::string(tool) + ": missing " + std::string(key));
  return std::string(*s);
}

std::vector<tool_def> build_catalog() {
  auto parsed = json::parse_object(catalog_document);
  if (!parsed) catalog_bug("document does not parse: " + parsed.err().message);
  const json::object* defs = json::get_object(*parsed, "defs");
  const json::array* entries = json::get_array(*parsed, "tools");
  if (!defs || !entries) catalog_bug("document lacks defs or tools");

  std::vector<tool_def> catalog;
  catalog.reserve(entries->size());
  for (const auto& v : *entries) {
    if (!v.is_object()) catalog_bug("tool entry is not an object");
    const json::object& entry = v.as_object();
    tool_def def;
    def.name = required_string(entry, "name", "?");
    def.plugin = "browser";
    def.base_name = def.name;
    def.kind = tool_kind::browser;
    def.display_name = required_string(entry, "summary", def.name);
    def.summary = def.display_name;
    def.description = required_string(entry, "description", def.name);
    def.icon = required_string(entry, "icon", def.name);
    def.group = required_string(entry, "group", def.name);
    if (const json::string* method = json::get_string(entry, "method")) {
      def.method = std::string(*method);
    } else {
      def.method = derive_method(def.name);
    }
    def.fan_out = json::get_bool(entry, "fanOut").value_or(false);
    def.input_schema = build_schema(entry, *defs, def.name);
    // Compiled on the tool's first call: the 85 compiled schemas were 0.7 MiB of an idle
    // server's heap.  browser_catalog_test compiles every one of them.
    def.validator = schema::compile_on_first_use(def.input_schema);
    catalog.push_back(std::move(def));
  }
  return catalog;
}

}  // namespace

const std::vector<tool_def>& browser_tool_catalog() {
  static const std::vector<tool_def> catalog = build_catalog();
  return catalog;
}

const tool_def* find_browser_tool(std::string_view name) {
  for (const auto& t : browser_tool_catalog()) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

json::object with_schema_defaults(const tool_def& tool, json::object arguments) {
  const json::object* properties = json::get_object(tool.input_schema, "properties");
  if (!properties) return arguments;
  for (const auto& [name, prop] : *properties) {
    if (arguments.contains(name) || !prop.is_object()) continue;
    if (const json::value* d = json::find(prop.as_object(), "default")) arguments[name] = *d;
  }
  return arguments;
}

}  // namespace opentabs::tools
