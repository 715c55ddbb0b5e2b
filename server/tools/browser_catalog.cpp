// The built-in browser tool catalog as one embedded JSON document, turned into tool_def
// values on first use.  Keeping it as data keeps the entries reviewable side by side
// and makes the JSON Schemas exactly what clients see.
//
// Document shape:
//   "defs":  reusable property schemas, referenced from a tool's "args" as "$name".
//   A property may carry "listed": the shape tools/list shows instead of the lean copy of it.
//   "tools": [{name, group, icon, summary, description, args, required?, oneOf?,
//              method?, fanOut?}]
//     method defaults to browser.<camelName> / extension.<camelName> derived from name;
//     method "" marks a tool served entirely by the server.
//     "oneOf" lists alternatives of required properties ([["selector"],["ref"]]) that
//     become an anyOf of required-sets: a target may be named by selector or by ref.
#include "tools/browser_catalog.hpp"

#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>

#include "schema/lazy_validator.hpp"

namespace opentabs::tools {
namespace {

constexpr std::string_view catalog_document = R"json({
"defs": {
  "tabId": {"type":"integer","minimum":1,"maximum":2147483647},
  "windowId": {"type":"integer","minimum":1,"maximum":2147483647},
  "groupId": {"type":"integer","minimum":0,"maximum":2147483647},
  "tabIds": {"type":"array","minItems":1,"maxItems":500,"items":{"type":"integer","minimum":1,"maximum":2147483647}},
  "connectionId": {"type":"string","minLength":1,"maxLength":200},
  "selector": {"type":"string","minLength":1,"maxLength":4000},
  "ref": {"type":"string","pattern":"^e[0-9]{1,9}@[0-9a-z]{4}$"},
  "httpUrl": {"type":"string","minLength":1,"maxLength":8192,"pattern":"^[Hh][Tt][Tt][Pp][Ss]?://"},
  "anyUrl": {"type":"string","minLength":1,"maxLength":8192},
  "clear": {"type":"boolean","default":false},
  "maxLength": {"type":"integer","minimum":1,"maximum":5000000},
  "filePath": {"type":"string","minLength":1,"maxLength":4096},
  "readPaths": {"type":"array","minItems":1,"maxItems":20,"items":{"type":"string","minLength":1,"maxLength":4096}},
  "overwrite": {"type":"boolean","default":false},
  "tabColor": {"type":"string","enum":["grey","blue","red","yellow","green","pink","purple","cyan","orange"]},
  "windowState": {"type":"string","enum":["normal","minimized","maximized","fullscreen"]},
  "waitUntil": {"type":"string","enum":["load","domcontentloaded","none"],"listed":{"type":"string"}},
  "button": {"type":"string","enum":["left","right","middle"]},
  "modifiers": {"anyOf":[{"type":"object","properties":{"shift":{"type":"boolean"},"ctrl":{"type":"boolean"},"alt":{"type":"boolean"},"meta":{"type":"boolean"}},"additionalProperties":false},{"type":"array","maxItems":4,"uniqueItems":true,"items":{"type":"string","enum":["Alt","Control","Meta","Shift"]}}],"listed":{"type":"object"}},
  "screenPos": {"type":"integer","minimum":-2147483648,"maximum":2147483647},
  "screenSize": {"type":"integer","minimum":1,"maximum":2147483647}
},
"tools": [
{"name":"extension_reload","group":"Extension","icon":"refresh-cw","summary":"Reload the OpenTabs extension",
 "description":"Reloads the extension; it reconnects in seconds.",
 "args":{}},
{"name":"extension_get_state","fanOut":true,"group":"Extension","icon":"activity","summary":"Extension connection and plugin state",
 "description":"Extension connection, plugins and tabs.",
 "args":{}},
{"name":"extension_get_logs","fanOut":true,"group":"Extension","icon":"scroll-text","summary":"Extension console logs",
 "description":"Extension logs, newest first.",
 "args":{"level":{"type":"string","enum":["all","debug","log","info","warn","error"]},"source":{"type":"string","enum":["all","background","offscreen"]},"limit":{"type":"integer","minimum":1,"maximum":1000,"default":100},"since":{"type":"number","minimum":0,"description":"ms since epoch"}}},
{"name":"extension_get_side_panel","group":"Extension","icon":"panel-right","summary":"Side panel state",
 "description":"Side panel state.",
 "args":{"connectionId":"$connectionId"}},
{"name":"extension_check_adapter","fanOut":true,"group":"Extension","icon":"plug","summary":"Check a plugin's adapter in its tabs",
 "description":"Is a plugin's adapter injected and current in its tabs?",
 "args":{"plugin":{"type":"string","minLength":1,"maxLength":214}},"required":["plugin"]},
{"name":"extension_force_reconnect","group":"Extension","icon":"plug-zap","summary":"Reconnect the extension's socket",
 "description":"Reconnects the extension to the server.",
 "args":{"connectionId":"$connectionId"}},

{"name":"browser_list_tabs","fanOut":true,"group":"Tabs","icon":"layout-list","summary":"List open tabs",
 "description":"Open tabs: id, title, url, window.",
 "args":{}},
{"name":"browser_open_tab","group":"Tabs","icon":"square-plus","summary":"Open a tab",
 "description":"Opens a URL in a new background tab (active shows it); returns its id.",
 "args":{"url":"$httpUrl","active":{"type":"boolean","default":false},"waitUntil":{"$ref":"waitUntil","default":"load"},"connectionId":"$connectionId"},"required":["url"]},
{"name":"browser_close_tab","group":"Tabs","icon":"square-x","summary":"Close a tab",
 "description":"Closes a tab.",
 "args":{"tabId":"$tabId"},"required":["tabId"]},
{"name":"browser_navigate_tab","group":"Tabs","icon":"navigation","summary":"Navigate a tab",
 "description":"Loads a URL in a tab.",
 "args":{"tabId":"$tabId","url":"$httpUrl","waitUntil":"$waitUntil"},"required":["tabId","url"]},
{"name":"browser_go_back","group":"Tabs","icon":"arrow-left","summary":"Go back",
 "description":"History back.",
 "args":{"tabId":"$tabId","waitUntil":"$waitUntil"},"required":["tabId"]},
{"name":"browser_go_forward","group":"Tabs","icon":"arrow-right","summary":"Go forward",
 "description":"History forward.",
 "args":{"tabId":"$tabId","waitUntil":"$waitUntil"},"required":["tabId"]},
{"name":"browser_reload_tab","group":"Tabs","icon":"rotate-cw","summary":"Reload a tab",
 "description":"Reloads a tab.",
 "args":{"tabId":"$tabId","bypassCache":{"type":"boolean"},"waitUntil":"$waitUntil"},"required":["tabId"]},
{"name":"browser_focus_tab","group":"Tabs","icon":"focus","summary":"Focus a tab",
 "description":"Shows a tab and focuses its window; only when asked.",
 "args":{"tabId":"$tabId"},"required":["tabId"]},
{"name":"browser_get_tab_info","group":"Tabs","icon":"info","summary":"Tab details",
 "description":"Tab status, url, title, window, group.",
 "args":{"tabId":"$tabId"},"required":["tabId"]},
{"name":"browser_list_tab_groups","group":"Tab groups","icon":"group","summary":"List tab groups",
 "description":"Tab groups.",
 "args":{"windowId":"$windowId"}},
{"name":"browser_create_tab_group","group":"Tab groups","icon":"folder-plus","summary":"Group tabs",
 "description":"Groups tabs.",
 "args":{"tabIds":"$tabIds","title":{"type":"string","maxLength":200},"color":"$tabColor"},"required":["tabIds"]},
{"name":"browser_add_tabs_to_group","group":"Tab groups","icon":"folder-input","summary":"Add tabs to a group",
 "description":"Moves tabs into a group.",
 "args":{"groupId":"$groupId","tabIds":"$tabIds"},"required":["groupId","tabIds"]},
{"name":"browser_remove_tabs_from_group","group":"Tab groups","icon":"folder-output","summary":"Ungroup tabs",
 "description":"Ungroups tabs.",
 "args":{"tabIds":"$tabIds"},"required":["tabIds"]},
{"name":"browser_update_tab_group","group":"Tab groups","icon":"folder-pen","summary":"Update a tab group",
 "description":"Renames, recolours or collapses a group.",
 "args":{"groupId":"$groupId","title":{"type":"string","maxLength":200},"color":"$tabColor","collapsed":{"type":"boolean"},"connectionId":"$connectionId"},"required":["groupId"]},
{"name":"browser_list_tabs_in_group","group":"Tab groups","icon":"folder-open","summary":"Tabs in a group",
 "description":"Tabs of a group.",
 "args":{"groupId":"$groupId","connectionId":"$connectionId"},"required":["groupId"]},

{"name":"browser_snapshot","group":"Page","icon":"scan-text","summary":"Accessibility snapshot with element refs",
 "description":"Start here to read or act on a page: its elements (role, name, value, state) with refs to act on; frames and shadow roots too.",
 "args":{"tabId":"$tabId","selector":"$selector","ref":"$ref","maxChars":{"type":"integer","minimum":200,"maximum":200000,"default":20000},"interactiveOnly":{"type":"boolean","default":false}},"required":["tabId"]},
{"name":"browser_execute_script","group":"Page","icon":"terminal","summary":"Run JavaScript in a page",
 "description":"Runs JavaScript in the page: an expression's value, or a body using return/await.",
 "args":{"tabId":"$tabId","code":{"type":"string","minLength":1,"maxLength":200000}},"required":["tabId","code"]},
{"name":"browser_screenshot_tab","group":"Page","icon":"camera","summary":"Screenshot a tab",
 "description":"Image of the viewport, an element or the full page, with pixel ratio.",
 "args":{"tabId":"$tabId","selector":"$selector","ref":"$ref","format":{"type":"string","enum":["png","jpeg","webp"],"default":"png"},"quality":{"type":"integer","minimum":0,"maximum":100,"description":"jpeg/webp"},"fullPage":{"type":"boolean"},"filePath":"$filePath","overwrite":"$overwrite"},"required":["tabId"]},
{"name":"browser_get_tab_content","group":"Page","icon":"file-text","summary":"Visible text of a page",
 "description":"Visible text of the page or an element.",
 "args":{"tabId":"$tabId","selector":{"$ref":"selector","default":"body"},"maxLength":{"$ref":"maxLength","default":50000}},"required":["tabId"]},
{"name":"browser_get_page_html","group":"Page","icon":"code","summary":"HTML of a page",
 "description":"HTML of the page or an element.",
 "args":{"tabId":"$tabId","selector":{"$ref":"selector","default":"html"},"maxLength":{"$ref":"maxLength","default":200000}},"required":["tabId"]},
{"name":"browser_wait_for_element","group":"Page","icon":"hourglass","summary":"Wait for an element",
 "description":"Waits for an element (or until visible).",
 "args":{"tabId":"$tabId","selector":"$selector","ref":"$ref","timeout":{"type":"integer","minimum":1,"maximum":300000,"default":10000},"visible":{"type":"boolean","default":false}},"required":["tabId"],"oneOf":[["selector"],["ref"]]},
{"name":"browser_wait_for_text","group":"Page","icon":"text-search","summary":"Wait for text",
 "description":"Waits until text appears or is gone, e.g. after a click that loads a page.",
 "args":{"tabId":"$tabId","text":{"type":"string","minLength":1,"maxLength":10000},"textGone":{"type":"string","minLength":1,"maxLength":10000},"timeout":{"type":"integer","minimum":1,"maximum":300000,"default":10000}},"required":["tabId"],"oneOf":[["text"],["textGone"]]},
{"name":"browser_wait","group":"Page","icon":"timer","summary":"Wait a moment",
 "description":"Pauses ms when nothing on the page signals done.",
 "args":{"ms":{"type":"integer","minimum":1,"maximum":25000}},"required":["ms"]},
{"name":"browser_find","method":"browser.findText","group":"Page","icon":"text-search","summary":"Find text on the page",
 "description":"Snapshot lines containing text, with refs, without the whole snapshot.",
 "args":{"tabId":"$tabId","text":{"type":"string","minLength":1,"maxLength":1000},"limit":{"type":"integer","minimum":1,"maximum":200,"default":20}},"required":["tabId","text"]},
{"name":"browser_save_pdf","method":"","group":"Page","icon":"file-down","summary":"Save the page as PDF",
 "description":"Saves the page as PDF.",
 "args":{"tabId":"$tabId","filePath":"$filePath","overwrite":"$overwrite","landscape":{"type":"boolean","default":false}},"required":["tabId","filePath"]},
{"name":"browser_query_elements","group":"Page","icon":"list-tree","summary":"Find elements",
 "description":"Elements matching a selector: text, box, attributes.",
 "args":{"tabId":"$tabId","selector":"$selector","limit":{"type":"integer","minimum":1,"maximum":1000,"default":100},"attributes":{"type":"array","maxItems":50,"items":{"type":"string","minLength":1,"maxLength":200},"default":["id","class","href","src","type","name","value","placeholder"]}},"required":["tabId","selector"]},
{"name":"browser_get_console_logs","group":"Page","icon":"square-terminal","summary":"Console messages of a tab",
 "description":"Console messages and errors of the page.",
 "args":{"tabId":"$tabId","clear":"$clear","level":{"type":"string","enum":["all","debug","log","info","warn","error"]}},"required":["tabId"]},
{"name":"browser_clear_console_logs","group":"Page","icon":"eraser","summary":"Clear captured console messages",
 "description":"Empties a tab's console record.",
 "args":{"tabId":"$tabId"},"required":["tabId"]},
{"name":"browser_list_resources","group":"Page","icon":"files","summary":"Resources a page loaded",
 "description":"Resources the page loaded.",
 "args":{"tabId":"$tabId","type":{"type":"string","enum":["Document","Stylesheet","Image","Media","Font","Script","TextTrack","XHR","Fetch","Manifest","Other"]}},"required":["tabId"]},
{"name":"browser_get_resource_content","group":"Page","icon":"file-code","summary":"Content of a loaded resource",
 "description":"Body of a loaded resource.",
 "args":{"tabId":"$tabId","url":"$anyUrl","maxLength":{"$ref":"maxLength","default":100000}},"required":["tabId","url"]},

{"name":"browser_get_storage","group":"Storage","icon":"database","summary":"Read localStorage/sessionStorage",
 "description":"localStorage or sessionStorage entries.",
 "args":{"tabId":"$tabId","storageType":{"type":"string","enum":["local","session"],"default":"local"},"key":{"type":"string","maxLength":4096}},"required":["tabId"]},
{"name":"browser_get_cookies","group":"Storage","icon":"cookie","summary":"Cookies for a URL",
 "description":"Cookies for a URL, HttpOnly too.",
 "args":{"url":"$httpUrl","name":{"type":"string","maxLength":4096}},"required":["url"]},
{"name":"browser_set_cookie","group":"Storage","icon":"cookie","summary":"Set a cookie",
 "description":"Sets a cookie.",
 "args":{"url":"$httpUrl","name":{"type":"string","minLength":1,"maxLength":4096},"value":{"type":"string","maxLength":4096},"domain":{"type":"string","maxLength":253},"path":{"type":"string","maxLength":4096},"secure":{"type":"boolean"},"httpOnly":{"type":"boolean"},"expirationDate":{"type":"number","minimum":0,"description":"s since epoch; none = session"}},"required":["url","name","value"]},
{"name":"browser_delete_cookies","group":"Storage","icon":"cookie","summary":"Delete a cookie",
 "description":"Deletes a cookie.",
 "args":{"url":"$httpUrl","name":{"type":"string","minLength":1,"maxLength":4096}},"required":["url","name"]},

{"name":"browser_click_element","group":"Interaction","icon":"mouse-pointer-click","summary":"Click an element",
 "description":"Clicks an element like a person (any button, double, modifiers).",
 "args":{"tabId":"$tabId","selector":"$selector","ref":"$ref","button":"$button","doubleClick":{"type":"boolean"},"modifiers":"$modifiers"},"required":["tabId"],"oneOf":[["selector"],["ref"]]},
{"name":"browser_fill_form","group":"Interaction","icon":"text-cursor-input","summary":"Fill several form fields",
 "description":"Fills fields at once: text, select (value or label), checkbox/radio (true/false).",
 "args":{"tabId":"$tabId","fields":{"type":"array","minItems":1,"maxItems":100,"items":{"type":"object","properties":{"selector":{"type":"string","minLength":1,"maxLength":4000},"ref":{"type":"string","pattern":"^e[0-9]{1,9}@[0-9a-z]{4}$"},"value":{"anyOf":[{"type":"string","maxLength":100000},{"type":"boolean"}]}},"required":["value"],"anyOf":[{"required":["selector"]},{"required":["ref"]}],"additionalProperties":false},"listed":{"type":"array","items":{"type":"object","properties":{"selector":{"type":"string"},"ref":{"type":"string"},"value":{"type":["string","boolean"]}}}}}},"required":["tabId","fields"]},
{"name":"browser_drag_element","group":"Interaction","icon":"move","summary":"Drag and drop",
 "description":"Drags from* onto to* (HTML5 or pointer), or drops outside files or data on to*.",
 "args":{"tabId":"$tabId","fromSelector":"$selector","fromRef":"$ref","toSelector":"$selector","toRef":"$ref","files":"$readPaths","data":{"type":"object","minProperties":1,"maxProperties":10,"additionalProperties":{"type":"string","maxLength":1000000},"listed":{"type":"object","description":"{mime: text}"}}},"required":["tabId"],"oneOf":[["fromSelector","toSelector"],["fromSelector","toRef"],["fromRef","toSelector"],["fromRef","toRef"],["files","toSelector"],["files","toRef"],["data","toSelector"],["data","toRef"]]},
{"name":"browser_upload_file","group":"Interaction","icon":"upload","summary":"Upload files into a file input",
 "description":"Sets a file input's files.",
 "args":{"tabId":"$tabId","selector":"$selector","ref":"$ref","paths":"$readPaths"},"required":["tabId","paths"],"oneOf":[["selector"],["ref"]]},
{"name":"browser_type_text","group":"Interaction","icon":"keyboard","summary":"Type into a field",
 "description":"Types into a field with key events; slowly: a keypress per character (autocompletes).",
 "args":{"tabId":"$tabId","selector":"$selector","ref":"$ref","text":{"type":"string","maxLength":100000},"clear":{"type":"boolean","default":false,"description":"Replace the value"},"slowly":{"type":"boolean","default":false}},"required":["tabId","text"],"oneOf":[["selector"],["ref"]]},
{"name":"browser_select_option","group":"Interaction","icon":"list-checks","summary":"Choose an option",
 "description":"Chooses a <select> option by value or label.",
 "args":{"tabId":"$tabId","selector":"$selector","ref":"$ref","value":{"type":"string","maxLength":10000},"label":{"type":"string","maxLength":10000}},"required":["tabId"],"oneOf":[["selector"],["ref"]]},
{"name":"browser_press_key","group":"Interaction","icon":"keyboard","summary":"Press a key",
 "description":"Presses a key (Enter, ArrowDown, a...) on the focused or named element.",
 "args":{"tabId":"$tabId","key":{"type":"string","minLength":1,"maxLength":40},"selector":"$selector","ref":"$ref","modifiers":"$modifiers"},"required":["tabId","key"]},
{"name":"browser_scroll","group":"Interaction","icon":"arrow-down-up","summary":"Scroll",
 "description":"Scrolls the page or a container, or an element into view.",
 "args":{"tabId":"$tabId","selector":"$selector","ref":"$ref","direction":{"type":"string","enum":["up","down","left","right"]},"distance":{"type":"integer","minimum":1,"maximum":1000000,"description":"px; default one viewport"},"position":{"description":"{x,y} px, or top/bottom","anyOf":[{"type":"object","properties":{"x":{"type":"number","minimum":-1000000000,"maximum":1000000000},"y":{"type":"number","minimum":-1000000000,"maximum":1000000000}},"additionalProperties":false},{"type":"string","enum":["top","bottom"]}],"listed":{"type":["object","string"],"description":"{x,y} px, or top/bottom"}},"container":{"$ref":"selector","description":"selector"}},"required":["tabId"]},
{"name":"browser_hover_element","group":"Interaction","icon":"pointer","summary":"Hover over an element",
 "description":"Moves the mouse over an element (:hover, mouseenter: menus).",
 "args":{"tabId":"$tabId","selector":"$selector","ref":"$ref"},"required":["tabId"],"oneOf":[["selector"],["ref"]]},
{"name":"browser_mouse","group":"Interaction","icon":"mouse","summary":"Mouse at x,y",
 "description":"Mouse at x,y (canvas, maps): click, move, drag to toX,toY, wheel by deltaX,deltaY.",
 "args":{"tabId":"$tabId","action":{"type":"string","enum":["click","move","drag","wheel"]},"x":{"type":"number"},"y":{"type":"number"},"toX":{"type":"number"},"toY":{"type":"number"},"deltaX":{"type":"number"},"deltaY":{"type":"number"},"button":"$button","doubleClick":{"type":"boolean"},"modifiers":"$modifiers"},"required":["tabId","action","x","y"]},
{"name":"browser_handle_dialog","group":"Interaction","icon":"message-square-warning","summary":"Answer an alert/confirm/prompt",
 "description":"Accepts or dismisses an alert, confirm or prompt.",
 "args":{"tabId":"$tabId","action":{"type":"string","enum":["accept","dismiss"]},"promptText":{"type":"string","maxLength":10000}},"required":["tabId","action"]},

{"name":"browser_enable_network_capture","group":"Network","icon":"radio-tower","summary":"Start recording network traffic",
 "description":"Records requests (headers, bodies), WebSocket frames and console until disabled; secrets too: only when asked.",
 "args":{"tabId":"$tabId","maxRequests":{"type":"integer","minimum":1,"maximum":5000,"default":100},"urlFilter":{"type":"string","maxLength":2000,"description":"URL substring"},"maxConsoleLogs":{"type":"integer","minimum":1,"maximum":10000,"default":500},"maxWsFrames":{"type":"integer","minimum":1,"maximum":10000,"default":200}},"required":["tabId"]},
{"name":"browser_get_network_requests","group":"Network","icon":"network","summary":"Requests of a tab (index)",
 "description":"Recorded requests: id method status type url size.",
 "args":{"tabId":"$tabId","clear":"$clear"},"required":["tabId"]},
{"name":"browser_get_network_request","group":"Network","icon":"file-search","summary":"One request in detail",
 "description":"One recorded request in detail.",
 "args":{"tabId":"$tabId","requestId":{"type":"string","minLength":1,"maxLength":200}},"required":["tabId","requestId"]},
{"name":"browser_get_websocket_frames","method":"browser.getWebSocketFrames","group":"Network","icon":"arrow-left-right","summary":"Recorded WebSocket frames",
 "description":"Recorded WebSocket frames.",
 "args":{"tabId":"$tabId","clear":"$clear"},"required":["tabId"]},
{"name":"browser_export_har","method":"","group":"Network","icon":"download","summary":"Export traffic as HAR",
 "description":"Recorded traffic as HAR.",
 "args":{"tabId":"$tabId","clear":"$clear","includeWebSocketFrames":{"type":"boolean","default":false},"filePath":"$filePath","overwrite":"$overwrite"},"required":["tabId"]},
{"name":"browser_disable_network_capture","group":"Network","icon":"radio","summary":"Stop recording network traffic",
 "description":"Stops network capture.",
 "args":{"tabId":"$tabId"},"required":["tabId"]},
{"name":"browser_intercept_requests","group":"Network","icon":"shield-half","summary":"Pause matching requests",
 "description":"Pauses requests matching URL patterns (* ?) to fulfill or fail.",
 "args":{"tabId":"$tabId","urlPatterns":{"type":"array","minItems":1,"maxItems":50,"items":{"type":"string","minLength":1,"maxLength":2000},"default":["*"]}},"required":["tabId"]},
{"name":"browser_fulfill_request","group":"Network","icon":"reply","summary":"Answer a paused request",
 "description":"Answers a paused request.",
 "args":{"tabId":"$tabId","requestId":{"type":"string","minLength":1,"maxLength":200},"status":{"type":"integer","minimum":100,"maximum":599},"headers":{"type":"object","additionalProperties":{"type":"string","maxLength":16384}},"body":{"type":"string","maxLength":10000000}},"required":["tabId","requestId","status"]},
{"name":"browser_fail_request","group":"Network","icon":"ban","summary":"Fail a paused request",
 "description":"Fails a paused request.",
 "args":{"tabId":"$tabId","requestId":{"type":"string","minLength":1,"maxLength":200},"errorReason":{"type":"string","enum":["Failed","Aborted","TimedOut","AccessDenied","ConnectionClosed","ConnectionReset","ConnectionRefused","ConnectionAborted","ConnectionFailed","NameNotResolved","InternetDisconnected","AddressUnreachable","BlockedByClient","BlockedByResponse"],"default":"Failed","listed":{"type":"string","description":"Failed (default), Aborted, TimedOut, AccessDenied, ConnectionRefused, ..."}}},"required":["tabId","requestId"]},
{"name":"browser_stop_intercepting","group":"Network","icon":"shield-off","summary":"Stop intercepting",
 "description":"Stops interception.",
 "args":{"tabId":"$tabId"},"required":["tabId"]},
{"name":"browser_throttle_network","group":"Network","icon":"gauge","summary":"Simulate a slow network",
 "description":"Simulates a slow or offline network.",
 "args":{"tabId":"$tabId","preset":{"type":"string","enum":["offline","slow-3g","3g","4g","wifi","fast-3g"]},"latency":{"type":"number","minimum":0,"maximum":60000,"description":"ms"},"downloadThroughput":{"type":"number","minimum":-1,"description":"bytes/s"},"uploadThroughput":{"type":"number","minimum":-1,"description":"bytes/s"}},"required":["tabId"]},
{"name":"browser_set_extra_headers","group":"Network","icon":"heading","summary":"Extra request headers",
 "description":"Adds HTTP headers to the tab's requests; {} removes.",
 "args":{"tabId":"$tabId","headers":{"type":"object","maxProperties":50,"additionalProperties":{"type":"string","maxLength":8192}}},"required":["tabId","headers"]},
{"name":"browser_throttle_cpu","group":"Emulation","icon":"cpu","summary":"Slow down the CPU",
 "description":"Slows the page's CPU rate times (1 = normal).",
 "args":{"tabId":"$tabId","rate":{"type":"number","minimum":1,"maximum":20}},"required":["tabId","rate"]},
{"name":"browser_clear_network_throttle","group":"Network","icon":"gauge","summary":"Stop simulating a slow network",
 "description":"Ends network throttling.",
 "args":{"tabId":"$tabId"},"required":["tabId"]},

{"name":"browser_notify","method":"browser.showNotification","group":"Notifications","icon":"bell","summary":"Desktop notification",
 "description":"Shows a desktop notification; a click opens url.",
 "args":{"title":{"type":"string","minLength":1},"message":{"type":"string","maxLength":2000},"iconUrl":{"type":"string","maxLength":8192},"requireInteraction":{"type":"boolean","default":false},"contextMessage":{"type":"string","maxLength":500},"url":"$httpUrl"},"required":["title","message"]},

{"name":"browser_emulate_device","group":"Emulation","icon":"smartphone","summary":"Emulate a device",
 "description":"Emulates viewport, pixel ratio, mobile, user agent.",
 "args":{"tabId":"$tabId","width":{"type":"integer","minimum":1,"maximum":10000},"height":{"type":"integer","minimum":1,"maximum":10000},"deviceScaleFactor":{"type":"number","minimum":0,"maximum":100,"default":1},"mobile":{"type":"boolean","default":false},"userAgent":{"type":"string","minLength":1,"maxLength":2000}},"required":["tabId","width","height"]},
{"name":"browser_set_geolocation","group":"Emulation","icon":"map-pin","summary":"Fake the location",
 "description":"Fakes the tab's location.",
 "args":{"tabId":"$tabId","latitude":{"type":"number","minimum":-90,"maximum":90},"longitude":{"type":"number","minimum":-180,"maximum":180},"accuracy":{"type":"number","minimum":0,"default":100,"description":"m"}},"required":["tabId","latitude","longitude"]},
{"name":"browser_set_media_features","group":"Emulation","icon":"sun-moon","summary":"Emulate CSS media features",
 "description":"Forces CSS media features (prefers-color-scheme...).",
 "args":{"tabId":"$tabId","features":{"type":"array","minItems":1,"maxItems":20,"items":{"type":"object","properties":{"name":{"type":"string","minLength":1,"maxLength":100},"value":{"type":"string","maxLength":100}},"required":["name","value"],"additionalProperties":false}}},"required":["tabId","features"]},
{"name":"browser_emulate_vision_deficiency","group":"Emulation","icon":"eye-off","summary":"Simulate a vision deficiency",
 "description":"Renders as seen with a vision deficiency.",
 "args":{"tabId":"$tabId","type":{"type":"string","enum":["none","blurredVision","reducedContrast","achromatopsia","deuteranopia","protanopia","tritanopia"]}},"required":["tabId","type"]},
{"name":"browser_clear_emulation","group":"Emulation","icon":"rotate-ccw","summary":"Clear all emulation",
 "description":"Removes all emulation.",
 "args":{"tabId":"$tabId"},"required":["tabId"]},

{"name":"browser_get_element_styles","group":"CSS","icon":"paintbrush","summary":"Computed and matched styles",
 "description":"Computed style and matched CSS rules of an element.",
 "args":{"tabId":"$tabId","selector":"$selector"},"required":["tabId","selector"]},
{"name":"browser_force_pseudo_state","group":"CSS","icon":"mouse-pointer","summary":"Force :hover/:focus",
 "description":"Forces :hover, :focus... on an element; [] clears.",
 "args":{"tabId":"$tabId","selector":"$selector","pseudoClasses":{"type":"array","maxItems":12,"uniqueItems":true,"items":{"type":"string","enum":[":active",":focus",":focus-visible",":focus-within",":hover",":visited","active","focus","focus-visible","focus-within","hover","visited"]},"listed":{"type":"array","items":{"type":"string"},"description":"e.g. [\"hover\"]"}}},"required":["tabId","selector","pseudoClasses"]},
{"name":"browser_get_css_coverage","group":"CSS","icon":"percent","summary":"Used vs unused CSS",
 "description":"Used and unused CSS per stylesheet.",
 "args":{"tabId":"$tabId"},"required":["tabId"]},

{"name":"browser_list_windows","group":"Windows","icon":"app-window","summary":"List windows",
 "description":"Windows: bounds, state, tabs.",
 "args":{}},
{"name":"browser_create_window","group":"Windows","icon":"app-window","summary":"Open a window",
 "description":"Opens a window.",
 "args":{"url":"$httpUrl","width":"$screenSize","height":"$screenSize","left":"$screenPos","top":"$screenPos","state":"$windowState","incognito":{"type":"boolean","default":false},"focused":{"type":"boolean","default":false}}},
{"name":"browser_update_window","group":"Windows","icon":"move","summary":"Move, resize or focus a window",
 "description":"Moves, resizes, sets state of or focuses a window.",
 "args":{"windowId":"$windowId","state":"$windowState","left":"$screenPos","top":"$screenPos","width":"$screenSize","height":"$screenSize","focused":{"type":"boolean"}},"required":["windowId"]},
{"name":"browser_close_window","group":"Windows","icon":"x","summary":"Close a window",
 "description":"Closes a window.",
 "args":{"windowId":"$windowId"},"required":["windowId"]},
{"name":"browser_download_file","group":"Downloads","icon":"download","summary":"Download a file",
 "description":"Downloads a URL.",
 "args":{"url":"$httpUrl","filename":{"type":"string","minLength":1,"maxLength":1000,"description":"In the downloads folder"},"saveAs":{"type":"boolean","default":false}},"required":["url"]},
{"name":"browser_list_downloads","group":"Downloads","icon":"list","summary":"Recent downloads",
 "description":"Recent downloads.",
 "args":{"query":{"type":"string","maxLength":1000},"state":{"type":"string","enum":["in_progress","interrupted","complete"]},"limit":{"type":"integer","minimum":1,"maximum":1000,"default":20}}},
{"name":"browser_get_download_status","group":"Downloads","icon":"loader","summary":"Download progress",
 "description":"Progress of one download.",
 "args":{"downloadId":{"type":"integer","minimum":0,"maximum":2147483647}},"required":["downloadId"]},
{"name":"browser_search_history","group":"History","icon":"history","summary":"Search history",
 "description":"Searches browsing history.",
 "args":{"query":{"type":"string","maxLength":1000},"maxResults":{"type":"integer","minimum":1,"maximum":10000,"default":100},"startTime":{"anyOf":[{"type":"string","minLength":1,"maxLength":100},{"type":"number","minimum":0,"maximum":8640000000000000}],"description":"ISO date or ms","listed":{"type":["string","number"],"description":"ISO date or ms"}},"endTime":{"anyOf":[{"type":"string","minLength":1,"maxLength":100},{"type":"number","minimum":0,"maximum":8640000000000000}],"description":"ISO date or ms","listed":{"type":["string","number"],"description":"ISO date or ms"}}},"required":["query"]},
{"name":"browser_get_visits","group":"History","icon":"footprints","summary":"Visits to a URL",
 "description":"Visits to a URL.",
 "args":{"url":"$anyUrl"},"required":["url"]},
{"name":"browser_search_bookmarks","group":"Bookmarks","icon":"bookmark","summary":"Search bookmarks",
 "description":"Searches bookmarks.",
 "args":{"query":{"type":"string","minLength":1,"maxLength":1000}},"required":["query"]},
{"name":"browser_create_bookmark","group":"Bookmarks","icon":"bookmark-plus","summary":"Add a bookmark",
 "description":"Adds a bookmark.",
 "args":{"title":{"type":"string","maxLength":1000},"url":"$httpUrl","parentId":{"type":"string","minLength":1,"maxLength":100}},"required":["title","url"]},
{"name":"browser_list_bookmark_tree","group":"Bookmarks","icon":"folder-tree","summary":"Bookmark tree",
 "description":"The bookmark tree.",
 "args":{"parentId":{"type":"string","minLength":1,"maxLength":100},"maxDepth":{"type":"integer","minimum":1,"maximum":50,"default":5}}},
{"name":"browser_get_recently_closed","group":"Sessions","icon":"archive-restore","summary":"Recently closed tabs and windows",
 "description":"Recently closed tabs and windows.",
 "args":{"maxResults":{"type":"integer","minimum":1,"maximum":25,"default":10}}},
{"name":"browser_restore_session","group":"Sessions","icon":"undo-2","summary":"Reopen a closed tab or window",
 "description":"Reopens a closed tab or window.",
 "args":{"sessionId":{"type":"string","minLength":1,"maxLength":200}},"required":["sessionId"]},
{"name":"browser_clear_site_data","group":"Site data","icon":"trash-2","summary":"Clear a site's data",
 "description":"Clears an origin's cookies, storage, cache, workers.",
 "args":{"origin":{"type":"string","minLength":1,"maxLength":2000,"pattern":"^[Hh][Tt][Tt][Pp][Ss]?://[^/]+$","description":"e.g. https://example.com"},"cookies":{"type":"boolean","default":true},"localStorage":{"type":"boolean","default":true},"cache":{"type":"boolean","default":true},"indexedDB":{"type":"boolean","default":true},"serviceWorkers":{"type":"boolean","default":true}},"required":["origin"]},

{"name":"plugin_list_tabs","method":"","group":"Plugins","icon":"layout-grid","summary":"Tabs of each plugin",
 "description":"Each plugin's state and tabs.",
 "args":{"plugin":{"type":"string","minLength":1,"maxLength":214}}},
{"name":"plugin_analyze_site","method":"","group":"Plugins","icon":"scan-search","summary":"Analyse a site for a new plugin",
 "description":"Analyses a site (traffic, auth, APIs, forms) for plugin tools.",
 "args":{"url":"$httpUrl","waitSeconds":{"type":"integer","minimum":0,"maximum":25,"default":5}},"required":["url"]}
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

// The schema clients see: what a model needs to form a call (types, enums, names, required
// and the few descriptions) without the bounds, patterns and closedness the server checks
// anyway; the listing goes into every agent's context.  Alternatives that only name
// required-sets (selector or ref) are left to the descriptions.  A property's "listed" member,
// when the catalog gives one, is shown instead (a shorter shape for a nested structure).
json::object listed_schema(const json::object& full) {
  if (const json::object* listed = json::get_object(full, "listed")) return *listed;
  json::object out;
  for (const auto& [key, v] : full) {
    if (key == "type" || key == "enum" || key == "required" || key == "description" || key == "const") {
      out[key] = v;
    } else if (key == "properties" && v.is_object()) {
      json::object props;
      for (const auto& [name, p] : v.as_object()) props[name] = p.is_object() ? listed_schema(p.as_object()) : p;
      out[key] = std::move(props);
    } else if ((key == "items" || key == "additionalProperties") && v.is_object()) {
      out[key] = listed_schema(v.as_object());
    } else if (key == "anyOf" && v.is_array()) {
      json::array alternatives;
      for (const auto& a : v.as_array())
        if (a.is_object() && a.as_object().contains("type")) alternatives.push_back(listed_schema(a.as_object()));
      if (!alternatives.empty()) out[key] = std::move(alternatives);
    }
  }
  return out;
}

json::object defaults_of(const json::object& schema) {
  json::object out;
  if (const json::object* properties = json::get_object(schema, "properties"))
    for (const auto& [name, prop] : *properties)
      if (prop.is_object())
        if (const json::value* d = json::find(prop.as_object(), "default")) out[name] = *d;
  return out;
}

std::string required_string(const json::object& entry, std::string_view key, std::string_view tool) {
  const json::string* s = json::get_string(entry, key);
  if (!s) catalog_bug(std::string(tool) + ": missing " + std::string(key));
  return std::string(*s);
}

// Arguments the server fills in when a call leaves them out, per tool: the listed schemas
// leave the defaults out.
std::map<std::string, json::object, std::less<>>& call_defaults() {
  static std::map<std::string, json::object, std::less<>> defaults;
  return defaults;
}

std::vector<tool_def> build_catalog() {
  auto& defaults = call_defaults();
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
    json::object full_schema = build_schema(entry, *defs, def.name);
    def.input_schema = listed_schema(full_schema);
    for (auto& [name, prop] : full_schema["properties"].as_object())
      if (prop.is_object()) prop.as_object().erase("listed");
    defaults[def.name] = defaults_of(full_schema);
    // Compiled on the tool's first call: the compiled schemas were 0.7 MiB of an idle
    // server's heap.  browser_catalog_test compiles every one of them.
    def.validator = schema::compile_on_first_use(std::move(full_schema));
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
  browser_tool_catalog();  // fills call_defaults() on first use
  auto it = call_defaults().find(tool.name);
  if (it == call_defaults().end()) return arguments;
  for (const auto& [name, d] : it->second)
    if (!arguments.contains(name)) arguments[name] = d;
  return arguments;
}

}  // namespace opentabs::tools
