// Server-side browser tools: exec files, screenshots, HAR export, site analysis.
#include "app/browser_tools.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <map>
#include <set>

#include "app/call_results.hpp"
#include "util/base64.hpp"
#include "util/clock.hpp"
#include "util/files.hpp"
#include "util/random.hpp"

namespace opentabs::app {
namespace fs = std::filesystem;

// ---- expression detection ------------------------------------------------------------------

namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Characters after which a `/` starts a regex literal rather than a division.
bool regex_may_follow(char prev) { return prev == 0 || std::string_view("(,=:[!&|?{};+-*%<>~^\n").find(prev) != std::string_view::npos; }

const std::set<std::string_view> statement_keywords = {
    "const", "let", "var", "if", "for", "while", "do", "return", "throw", "try", "switch", "class",
    "function", "import", "export", "break", "continue", "debugger", "label", "with"};

// Characters that, ending a line, mean the expression continues on the next line.
bool continues_line(char c) { return std::string_view("([{,.+-*/%=&|^!?:<>~").find(c) != std::string_view::npos; }
// Characters that, starting a line, continue the previous one.
bool continues_from(char c) { return std::string_view(")]},.+-*/%=&|^?:<>`").find(c) != std::string_view::npos; }

}  // namespace

bool looks_like_expression(std::string_view code) {
  code = trim(code);
  while (!code.empty() && code.back() == ';') code = trim(code.substr(0, code.size() - 1));
  if (code.empty()) return false;
  // Leading keyword (but `function(...)`/`class {}` expressions and `async x => …` are rare
  // enough at top level that treating them as bodies is the safe choice).
  std::size_t n = 0;
  while (n < code.size() && ident_char(code[n])) ++n;
  auto first_word = code.substr(0, n);
  if (statement_keywords.count(first_word)) return false;
  if (code.front() == '{') return false;  // a block (console would also read it as one)

  int depth = 0;
  char prev = 0;        // last significant character outside strings/comments
  bool line_break = false;
  for (std::size_t i = 0; i < code.size(); ++i) {
    char c = code[i];
    if (c == '\n') {
      if (depth == 0) line_break = true;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) continue;
    if (c == '/' && i + 1 < code.size() && code[i + 1] == '/') {
      while (i < code.size() && code[i] != '\n') ++i;
      --i;
      continue;
    }
    if (c == '/' && i + 1 < code.size() && code[i + 1] == '*') {
      auto end = code.find("*/", i + 2);
      if (end == std::string_view::npos) return false;
      i = end + 1;
      continue;
    }
    if (line_break && depth == 0) {
      // Two complete lines at top level form two statements unless one side continues.
      if (!continues_line(prev) && !continues_from(c)) return false;
    }
    line_break = false;
    if (c == '"' || c == '\'') {
      for (++i; i < code.size() && code[i] != c; ++i) {
        if (code[i] == '\\') ++i;
        if (i < code.size() && code[i] == '\n') return false;
      }
      prev = c;
      continue;
    }
    if (c == '`') {
      int nest = 0;
      for (++i; i < code.size(); ++i) {
        if (code[i] == '\\') { ++i; continue; }
        if (nest == 0 && code[i] == '`') break;
        if (code[i] == '$' && i + 1 < code.size() && code[i + 1] == '{') { ++nest; ++i; continue; }
        if (nest > 0 && code[i] == '}') --nest;
      }
      prev = '`';
      continue;
    }
    if (c == '/' && regex_may_follow(prev)) {
      bool in_class = false;
      for (++i; i < code.size(); ++i) {
        if (code[i] == '\\') { ++i; continue; }
        if (code[i] == '[') in_class = true;
        else if (code[i] == ']') in_class = false;
        else if (code[i] == '/' && !in_class) break;
        else if (code[i] == '\n') return false;
      }
      while (i + 1 < code.size() && std::isalpha(static_cast<unsigned char>(code[i + 1]))) ++i;
      prev = 'r';
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') {
      if (--depth < 0) return false;
    }
    if (c == ';' && depth == 0) return false;
    // A keyword that can only start a statement, at top level after a line break or `;`, was
    // handled above; inside an expression words like `return` cannot appear at depth 0.
    if (ident_char(c)) {
      std::size_t j = i;
      while (j < code.size() && ident_char(code[j])) ++j;
      auto word = code.substr(i, j - i);
      if (depth == 0 && (word == "return" || word == "const" || word == "let" || word == "var" || word == "throw")) return false;
      i = j - 1;
      prev = 'a';
      continue;
    }
    prev = c;
  }
  return depth == 0;
}

std::string exec_file_source(std::string_view key, std::string_view code) {
  const bool expression = looks_like_expression(code);
  std::string body;
  if (expression) {
    auto t = trim(code);
    while (!t.empty() && t.back() == ';') t = trim(t.substr(0, t.size() - 1));
    body = "return (\n" + std::string(t) + "\n);";
  } else {
    body = std::string(code);
  }
  const std::string k(key);
  // The key is a UUID (hex and dashes), safe to splice into the source.
  std::string out;
  out += "// opentabs browser_execute_script exec file (written by the server, deleted after use)\n";
  out += "(() => {\n";
  out += "  const key = '" + k + "';\n";
  out += "  let ns = globalThis.__openTabs;\n";
  out += "  if (!ns || typeof ns !== 'object' || !Object.isExtensible(ns)) {\n";
  out += "    try { if (!ns) { globalThis.__openTabs = {}; ns = globalThis.__openTabs; } } catch { ns = null; }\n";
  out += "    if (!ns || !Object.isExtensible(ns)) ns = (globalThis.__openTabsExec = globalThis.__openTabsExec || {});\n";
  out += "  }\n";
  out += "  const settle = (outcome) => { ns['__execResult_' + key] = outcome; };\n";
  out += "  ns['__execStarted_' + key] = true;\n";
  // The original's words: an Error's message alone (its stack names only this file).
  out += "  const describe = (e) => (e instanceof Error ? e.message : String(e));\n";
  out += "  try {\n";
  out += "    (async () => {\n" + body + "\n    })().then((value) => settle({ value }), (e) => settle({ error: describe(e) }));\n";
  out += "  } catch (e) { settle({ error: describe(e) }); }\n";
  out += "})();\n";
  return out;
}

// ---- small utilities -----------------------------------------------------------------------

std::optional<std::pair<std::uint32_t, std::uint32_t>> png_size(std::string_view png) {
  static constexpr std::string_view signature("\x89PNG\r\n\x1a\n", 8);
  if (png.size() < 24 || png.substr(0, 8) != signature || png.substr(12, 4) != "IHDR") return std::nullopt;
  auto be32 = [&](std::size_t at) {
    return (static_cast<std::uint32_t>(static_cast<unsigned char>(png[at])) << 24) |
           (static_cast<std::uint32_t>(static_cast<unsigned char>(png[at + 1])) << 16) |
           (static_cast<std::uint32_t>(static_cast<unsigned char>(png[at + 2])) << 8) |
           static_cast<std::uint32_t>(static_cast<unsigned char>(png[at + 3]));
  };
  return std::pair{be32(16), be32(20)};
}

// ---- HAR -----------------------------------------------------------------------------------

namespace {

json::array har_headers(const json::object* headers) {
  json::array out;
  if (!headers) return out;
  for (const auto& [k, v] : *headers)
    out.push_back(json::object{{"name", json::str(k)}, {"value", v.is_string() ? v : json::str(json::dump(v))}});
  return out;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string url_decode(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') out.push_back(' ');
    else if (s[i] == '%' && i + 2 < s.size() && hex_value(s[i + 1]) >= 0 && hex_value(s[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2])));
      i += 2;
    } else out.push_back(s[i]);
  }
  return out;
}

json::array query_string(std::string_view url) {
  json::array out;
  auto q = url.find('?');
  if (q == std::string_view::npos) return out;
  auto query = url.substr(q + 1);
  if (auto h = query.find('#'); h != std::string_view::npos) query = query.substr(0, h);
  while (!query.empty()) {
    auto amp = query.find('&');
    auto pair = query.substr(0, amp);
    if (!pair.empty()) {
      auto eq = pair.find('=');
      out.push_back(json::object{{"name", json::str(url_decode(pair.substr(0, eq)))},
                                 {"value", json::str(eq == std::string_view::npos ? "" : url_decode(pair.substr(eq + 1)))}});
    }
    if (amp == std::string_view::npos) break;
    query = query.substr(amp + 1);
  }
  return out;
}

std::string header_value(const json::object* headers, std::string_view name) {
  if (!headers) return {};
  for (const auto& [k, v] : *headers) {
    std::string key(k);
    std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return std::tolower(c); });
    if (key == name && v.is_string()) return std::string(v.as_string());
  }
  return {};
}

std::string str_or(const json::object& o, std::string_view key, std::string_view fallback = "") {
  const auto* s = json::get_string(o, key);
  return s ? std::string(*s) : std::string(fallback);
}

json::object timings() { return json::object{{"send", 0}, {"wait", 0}, {"receive", 0}}; }

json::object request_entry(const json::object& r) {
  const std::string url = str_or(r, "url");
  const auto* req_headers = json::get_object(r, "requestHeaders");
  const auto* res_headers = json::get_object(r, "responseHeaders");
  const auto* req_body = json::get_string(r, "requestBody");
  const auto* res_body = json::get_string(r, "responseBody");
  json::object request{{"method", json::str(str_or(r, "method", "GET"))},
                       {"url", json::str(url)},
                       {"httpVersion", json::str(str_or(r, "protocol", "HTTP/1.1"))},
                       {"cookies", json::array{}},
                       {"headers", har_headers(req_headers)},
                       {"queryString", query_string(url)},
                       {"headersSize", -1},
                       {"bodySize", req_body ? static_cast<std::int64_t>(req_body->size()) : 0}};
  if (req_body) {
    auto mime = header_value(req_headers, "content-type");
    request["postData"] = json::object{{"mimeType", json::str(mime.empty() ? "application/octet-stream" : mime)},
                                       {"text", *req_body}};
  }
  std::string mime = str_or(r, "mimeType");
  if (mime.empty()) mime = header_value(res_headers, "content-type");
  json::object content{{"size", res_body ? static_cast<std::int64_t>(res_body->size()) : 0},
                       {"mimeType", json::str(mime.empty() ? "application/octet-stream" : mime)}};
  if (res_body) content["text"] = *res_body;
  json::object response{{"status", json::get_int(r, "status").value_or(0)},
                        {"statusText", json::str(str_or(r, "statusText"))},
                        {"httpVersion", json::str(str_or(r, "protocol", "HTTP/1.1"))},
                        {"cookies", json::array{}},
                        {"headers", har_headers(res_headers)},
                        {"content", std::move(content)},
                        {"redirectURL", json::str(str_or(r, "redirectURL"))},
                        {"headersSize", -1},
                        {"bodySize", json::get_int(r, "encodedDataLength").value_or(-1)}};
  const auto duration = json::get_number(r, "durationMs").value_or(0);
  json::object t = timings();
  t["wait"] = duration;
  json::object entry{{"startedDateTime", json::str(iso8601_from_epoch_ms(json::get_int(r, "timestamp").value_or(0)))},
                     {"time", duration},
                     {"request", std::move(request)},
                     {"response", std::move(response)},
                     {"cache", json::object{}},
                     {"timings", std::move(t)}};
  if (json::get_bool(r, "failed").value_or(false))
    entry["comment"] = json::str("failed: " + str_or(r, "errorText"));
  return entry;
}

json::object frame_entry(const json::object& f) {
  const std::string url = str_or(f, "url");
  const std::string direction = str_or(f, "direction");
  const auto opcode = json::get_int(f, "opcode").value_or(1);
  const auto* data = json::get_string(f, "data");
  json::object request{{"method", "GET"},
                       {"url", json::str(url)},
                       {"httpVersion", "HTTP/1.1"},
                       {"cookies", json::array{}},
                       {"headers", json::array{json::object{{"name", "Upgrade"}, {"value", "websocket"}},
                                               json::object{{"name", "X-WebSocket-Direction"}, {"value", json::str(direction)}},
                                               json::object{{"name", "X-WebSocket-Opcode"}, {"value", json::str(std::to_string(opcode))}}}},
                       {"queryString", query_string(url)},
                       {"headersSize", -1},
                       {"bodySize", data ? static_cast<std::int64_t>(data->size()) : 0},
                       {"postData", json::object{{"mimeType", opcode == 1 ? "text/plain" : "application/octet-stream"},
                                                 {"text", data ? json::value(*data) : json::str("")}}}};
  json::object response{{"status", 101},
                        {"statusText", "WebSocket Frame"},
                        {"httpVersion", "HTTP/1.1"},
                        {"cookies", json::array{}},
                        {"headers", json::array{}},
                        {"content", json::object{{"size", 0}, {"mimeType", "application/octet-stream"}}},
                        {"redirectURL", ""},
                        {"headersSize", -1},
                        {"bodySize", -1}};
  return json::object{{"startedDateTime", json::str(iso8601_from_epoch_ms(json::get_int(f, "timestamp").value_or(0)))},
                      {"time", 0},
                      {"request", std::move(request)},
                      {"response", std::move(response)},
                      {"cache", json::object{}},
                      {"timings", timings()},
                      {"comment", json::str("WebSocket " + direction + " frame (opcode " + std::to_string(opcode) + ")")}};
}

}  // namespace

json::object build_har(const json::array& requests, const json::array* ws_frames, std::string_view creator_version) {
  json::array entries;
  for (const auto& r : requests)
    if (r.is_object()) entries.push_back(request_entry(r.get_object()));
  if (ws_frames)
    for (const auto& f : *ws_frames)
      if (f.is_object()) entries.push_back(frame_entry(f.get_object()));
  std::stable_sort(entries.begin(), entries.end(), [](const json::value& a, const json::value& b) {
    return a.get_object().at("startedDateTime").get_string() < b.get_object().at("startedDateTime").get_string();
  });
  return json::object{{"log", json::object{{"version", "1.2"},
                                           {"creator", json::object{{"name", "OpenTabs"}, {"version", json::str(creator_version)}}},
                                           {"pages", json::array{}},
                                           {"entries", std::move(entries)}}}};
}

// ---- request index ---------------------------------------------------------------------------

namespace {
std::string cell(const json::object& o, std::string_view key, std::size_t max = 300) {
  const json::value* v = json::find(o, key);
  if (!v || v->is_null()) return "-";
  std::string text;
  if (v->is_string()) text = std::string(v->get_string());
  else if (v->is_int64() || v->is_uint64() || v->is_double()) text = json::dump(*v);
  else return "-";
  // One line per request: a page-chosen URL or error text must not start a new line.
  for (char& c : text)
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  if (text.empty()) return "-";
  if (text.size() > max) text = text.substr(0, max) + "…";
  return text;
}
}  // namespace

std::string network_index(const json::object& reply, std::int64_t tab_id) {
  static const json::array empty;
  const json::array* list = json::get_array(reply, "requests");
  if (!list) list = &empty;
  const std::string source = [&] {
    const auto* s = json::get_string(reply, "source");
    return s ? std::string(*s) : std::string("debugger");
  }();
  std::string out = std::to_string(list->size()) + " request" + (list->size() == 1 ? "" : "s") + " in tab " +
                    std::to_string(tab_id) +
                    (source == "light"
                         ? " (always-on record kept by the page: no headers or bodies; browser_enable_network_capture records them)"
                         : " (network capture)") +
                    ". Details of one: browser_get_network_request with its id.\n";
  if (json::get_string(reply, "note")) out += cell(reply, "note", 400) + "\n";
  if (auto dropped = json::get_int(reply, "dropped"); dropped && *dropped > 0)
    out += "[" + std::to_string(*dropped) + " earlier requests of this page no longer kept]\n";
  std::size_t first = 0;
  if (list->size() > max_network_index_lines) {
    first = list->size() - max_network_index_lines;
    out += "[" + std::to_string(first) + " oldest not shown]\n";
  }
  if (!list->empty()) out += "id method status type url size\n";
  for (std::size_t i = first; i < list->size(); ++i) {
    if (!(*list)[i].is_object()) continue;
    const json::object& r = (*list)[i].get_object();
    std::string status = cell(r, "status");
    if (json::get_bool(r, "failed").value_or(false)) status = "failed:" + cell(r, "errorText", 80);
    std::string size = cell(r, "size");
    if (size == "-") size = cell(r, "encodedDataLength");
    out += cell(r, "requestId", 80) + " " + cell(r, "method", 20) + " " + status + " " + cell(r, "type", 40) + " " +
           cell(r, "url") + " " + size + "\n";
  }
  if (const json::array* paused = json::get_array(reply, "pausedRequests"); paused && !paused->empty()) {
    out += std::to_string(paused->size()) + " paused (answer with browser_fulfill_request or browser_fail_request):\n";
    for (const auto& pv : *paused) {
      if (!pv.is_object()) continue;
      const json::object& p = pv.get_object();
      out += cell(p, "requestId", 80) + " " + cell(p, "method", 20) + " " + cell(p, "resourceType", 40) + " " + cell(p, "url") + "\n";
    }
  }
  return out;
}

// ---- the handler ---------------------------------------------------------------------------

namespace {
// Named method strings: GCC 12 rejects string-literal temporaries inside co_await expressions.
const std::string method_browser_closeTab = "browser.closeTab";
const std::string method_browser_disableNetworkCapture = "browser.disableNetworkCapture";
const std::string method_browser_enableNetworkCapture = "browser.enableNetworkCapture";
const std::string method_browser_executeScript = "browser.executeScript";
const std::string method_browser_getCookies = "browser.getCookies";
const std::string method_browser_getNetworkRequests = "browser.getNetworkRequests";
const std::string method_browser_getWebSocketFrames = "browser.getWebSocketFrames";
const std::string method_browser_navigateTab = "browser.navigateTab";
const std::string method_browser_openTab = "browser.openTab";
const std::string method_browser_screenshotTab = "browser.screenshotTab";
const std::string method_browser_waitForElement = "browser.waitForElement";
const std::string method_browser_uploadFile = "browser.uploadFile";
const std::string method_browser_dragElement = "browser.dragElement";
const std::string key_paths = "paths";
const std::string key_files = "files";
const std::string method_browser_savePdf = "browser.savePdf";
}  // namespace


browser_tools::browser_tools(extension_hub& hub, fs::path adapters_dir, std::function<output_locations()> output_folders)
    : hub_(hub), adapters_dir_(std::move(adapters_dir)), output_folders_(std::move(output_folders)) {}

result<fs::path> browser_tools::save_output(const json::object& args, std::string_view content) const {
  const auto* requested = json::get_string(args, "filePath");
  if (!requested) return make_error(errc::invalid_params, "filePath is missing");
  output_file_policy policy(output_folders_());
  return policy.write(*requested, content, json::get_bool(args, "overwrite").value_or(false));
}

net::awaitable<ext_reply> browser_tools::ask(const std::string& method, json::object params) {
  request_options ro;
  std::optional<std::int64_t> tab = json::get_int(params, "tabId");
  if (const auto* cid = json::get_string(params, "connectionId")) ro.connection_id = std::string(*cid);
  else ro.connection_id = hub_.choose_connection("", tab, "");
  ro.label = method;
  co_return co_await hub_.request(method, std::move(params), std::move(ro));
}

net::awaitable<std::optional<tools::call_result>> browser_tools::call(const tools::tool_def& tool, json::object& args,
                                                                      tools::call_options&) {
  if (tool.name == "browser_execute_script") co_return co_await execute_script(args);
  if (tool.name == "browser_screenshot_tab") co_return co_await screenshot(args);
  if (tool.name == "browser_export_har") co_return co_await export_har(args);
  if (tool.name == "plugin_analyze_site") co_return co_await analyze_site(args);
  if (tool.name == "browser_upload_file") co_return co_await with_readable_files(args, key_paths, method_browser_uploadFile);
  if (tool.name == "browser_drag_element" && args.contains(key_files))
    co_return co_await with_readable_files(args, key_files, method_browser_dragElement);
  if (tool.name == "browser_save_pdf") co_return co_await save_pdf(args);
  if (tool.name == "browser_get_network_requests") {
    const auto tab = json::get_int(args, "tabId");
    if (!tab) co_return tools::call_result::text("Browser tool error: tabId is required", true, errc::tool_failed);
    auto reply = co_await ask(method_browser_getNetworkRequests, args);
    if (!reply.ok()) co_return browser_failure(reply);
    const json::object* o = reply.result.if_object();
    if (!o) co_return tools::call_result::text("Browser tool error: browser.getNetworkRequests returned no object", true, errc::tool_failed);
    co_return tools::call_result::text(network_index(*o, *tab));
  }
  co_return std::nullopt;
}

net::awaitable<ext_reply> browser_tools::run_exec_file(std::int64_t tab_id, std::string_view code, const json::value* client) {
  const std::string key = uuid_v4();
  const std::string file = std::string("__exec-") + key + ".js";
  const fs::path path = adapters_dir_ / file;
  std::error_code ec;
  fs::create_directories(adapters_dir_, ec);
  if (auto w = write_file_atomic(path, exec_file_source(key, code), 0644); !w) {
    ext_reply failed;
    failed.outcome = ext_reply::kind::not_sent;
    failed.message = "could not write the exec file: " + w.err().message;
    co_return failed;
  }
  json::object params_1{{"tabId", tab_id}, {"execFile", json::str(file)}};
  if (client) params_1["clientGroup"] = *client;
  auto reply = co_await ask(method_browser_executeScript, std::move(params_1));
  fs::remove(path, ec);  // the file is single-use whatever happened
  co_return reply;
}

net::awaitable<tools::call_result> browser_tools::execute_script(const json::object& args) {
  const auto tab = json::get_int(args, "tabId");
  const auto* code = json::get_string(args, "code");
  if (!tab || !code) co_return tools::call_result::text("Browser tool error: tabId and code are required", true, errc::tool_failed);
  auto reply = co_await run_exec_file(*tab, *code, json::find(args, "clientGroup"));
  if (!reply.ok()) co_return browser_failure(reply);
  co_return browser_success("browser_execute_script", reply.result);
}

net::awaitable<tools::call_result> browser_tools::screenshot(const json::object& args) {
  const auto tab = json::get_int(args, "tabId");
  if (!tab) co_return tools::call_result::text("Browser tool error: tabId is required", true, errc::tool_failed);
  // Refuse a path that breaks the rules before asking the browser for anything.
  const bool to_file = json::find(args, "filePath") != nullptr;
  if (const auto* fp = json::get_string(args, "filePath")) {
    output_file_policy policy(output_folders_());
    if (auto where = policy.resolve(*fp); !where) co_return tools::call_result::text("Browser tool error: " + where.err().message, true, errc::tool_failed);
  }
  json::object params_2{{"tabId", *tab}};
  for (const char* key : {"selector", "ref", "fullPage", "format", "quality", "clientGroup"})
    if (const auto* v = json::find(args, key)) params_2[key] = *v;
  auto reply = co_await ask(method_browser_screenshotTab, std::move(params_2));
  if (!reply.ok()) co_return browser_failure(reply);
  const json::object* result = reply.result.if_object();
  const json::string* image = result ? json::get_string(*result, "image") : nullptr;
  if (!image) co_return tools::call_result::text("Browser tool error: the extension returned no image", true, errc::tool_failed);
  const json::string* mime = json::get_string(*result, "mimeType");
  const std::string mime_type = mime ? std::string(*mime) : std::string("image/png");
  if (mime_type != "image/png" && mime_type != "image/jpeg" && mime_type != "image/webp")
    co_return tools::call_result::text("Browser tool error: the extension returned an image of type " + mime_type, true, errc::tool_failed);
  auto png = decode_base64(*image);
  // Only PNG sizes are read here; JPEG and WebP report the pixel ratio alone.
  auto size = png && mime_type == "image/png" ? png_size(*png) : std::nullopt;
  if (!png || (mime_type == "image/png" && !size))
    co_return tools::call_result::text("Browser tool error: the extension returned an image that does not decode as " + mime_type, true, errc::tool_failed);
  const std::string dims = size ? std::to_string(size->first) + "x" + std::to_string(size->second) + " " : std::string();
  const std::string format = mime_type.substr(6);
  if (to_file) {
    auto file = save_output(args, *png);
    if (!file) co_return tools::call_result::text("Browser tool error: could not save the screenshot: " + file.err().message, true, errc::tool_failed);
    json::object saved{{"savedTo", json::str(file->string())}, {"bytes", static_cast<std::int64_t>(png->size())}};
    if (size) {
      saved["width"] = size->first;
      saved["height"] = size->second;
    }
    co_return tools::call_result::text(json::dump(saved));
  }
  std::string what = "Screenshot of tab " + std::to_string(*tab);
  if (json::get_bool(args, "fullPage").value_or(false)) what += " (full page)";
  if (const auto* ref = json::get_string(args, "ref")) what += " (element " + std::string(*ref) + ")";
  else if (const auto* sel = json::get_string(args, "selector")) what += " (element '" + std::string(*sel) + "')";
  what += ": " + dims + format + ", " + std::to_string(png->size()) + " bytes";
  if (const auto* ratio = json::find(*result, "pixelRatio"); ratio && ratio->is_number()) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", ratio->to_number<double>());
    what += ", " + std::string(text) + " image px per CSS px (divide image coordinates by it for browser_mouse)";
  }
  if (const auto* note = json::get_string(*result, "note")) what += ". " + std::string(*note);
  tools::call_result r;
  r.content.push_back(json::object{{"type", "image"}, {"data", *image}, {"mimeType", json::str(mime_type)}});
  r.content.push_back(json::object{{"type", "text"}, {"text", json::str(what)}});
  co_return r;
}

net::awaitable<tools::call_result> browser_tools::save_pdf(const json::object& args) {
  // Refuse a path that breaks the rules before asking the browser for anything.
  const auto* fp = json::get_string(args, "filePath");
  if (!fp) co_return tools::call_result::text("Browser tool error: filePath is required", true, errc::tool_failed);
  if (auto where = output_file_policy(output_folders_()).resolve(*fp); !where)
    co_return tools::call_result::text("Browser tool error: " + where.err().message, true, errc::tool_failed);
  json::object params{{"tabId", json::get_int(args, "tabId").value_or(0)}, {"landscape", json::get_bool(args, "landscape").value_or(false)}};
  auto reply = co_await ask(method_browser_savePdf, std::move(params));
  if (!reply.ok()) co_return browser_failure(reply);
  const json::object* result = reply.result.if_object();
  const json::string* data = result ? json::get_string(*result, "pdf") : nullptr;
  auto pdf = data ? decode_base64(*data) : std::nullopt;
  if (!pdf || !pdf->starts_with("%PDF-")) co_return tools::call_result::text("Browser tool error: the extension returned no PDF", true, errc::tool_failed);
  auto file = save_output(args, *pdf);
  if (!file) co_return tools::call_result::text("Browser tool error: could not save the PDF: " + file.err().message, true, errc::tool_failed);
  co_return tools::call_result::text(json::dump(json::object{{"savedTo", json::str(file->string())}, {"bytes", static_cast<std::int64_t>(pdf->size())}}));
}

net::awaitable<tools::call_result> browser_tools::with_readable_files(const json::object& args, const std::string& key,
                                                                       const std::string& method) {
  // A path can be chosen by a page's content (prompt injection): every one must pass the read
  // policy, and the extension gets only the checked real paths.
  const json::array* paths = json::get_array(args, key);
  if (!paths || paths->empty()) co_return tools::call_result::text("Browser tool error: " + key + " is required", true, errc::tool_failed);
  output_file_policy policy(output_folders_());
  json::array real_paths;
  for (std::size_t i = 0; i < paths->size(); ++i) {
    const auto& p = (*paths)[i];
    const std::string name = key + "[" + std::to_string(i) + "]";
    if (!p.is_string()) co_return tools::call_result::text("Browser tool error: " + name + " is not a string", true, errc::tool_failed);
    auto real = policy.readable(p.get_string());
    if (!real) co_return tools::call_result::text("Browser tool error: " + name + ": " + real.err().message, true, errc::tool_failed);
    real_paths.push_back(json::str(real->string()));
  }
  json::object params = args;
  params[key] = std::move(real_paths);
  auto reply = co_await ask(method, std::move(params));
  if (!reply.ok()) co_return browser_failure(reply);
  co_return success_result(reply.result, false);
}

net::awaitable<tools::call_result> browser_tools::export_har(const json::object& args) {
  const auto tab = json::get_int(args, "tabId");
  if (!tab) co_return tools::call_result::text("Browser tool error: tabId is required", true, errc::tool_failed);
  const bool clear = json::get_bool(args, "clear").value_or(false);
  const bool with_frames = json::get_bool(args, "includeWebSocketFrames").value_or(false);
  // Refuse a path that breaks the rules before asking the browser for anything.
  const bool to_file = json::find(args, "filePath") != nullptr;
  if (const auto* fp = json::get_string(args, "filePath")) {
    output_file_policy policy(output_folders_());
    if (auto where = policy.resolve(*fp); !where) co_return tools::call_result::text("Browser tool error: " + where.err().message, true, errc::tool_failed);
  }
  // Read without clearing first; clear only once everything was read, so a failed second
  // read does not lose the first buffer (the clearing read returns the complete buffer).
  json::object req_params{{"tabId", *tab}};
  if (clear && !with_frames) req_params["clear"] = true;
  json::object params_3 = req_params;
  auto requests = co_await ask(method_browser_getNetworkRequests, std::move(params_3));
  if (!requests.ok()) co_return browser_failure(requests);
  // With capture off our extension answers from the page's light record, which has no
  // headers or timings; the original (whose extension then fails) answers isError, and so do we.
  if (const auto* o = requests.result.if_object(); o && json::get_string(*o, "source") && *json::get_string(*o, "source") == "light")
    co_return tools::call_result::text("Browser tool error: network capture is not active in tab " + std::to_string(*tab) +
                                           ": call browser_enable_network_capture first, then load what the HAR should hold",
                                       true, errc::tool_failed);
  json::array frames;
  if (with_frames) {
    json::object params_4{{"tabId", *tab}, {"clear", clear}};
    auto f = co_await ask(method_browser_getWebSocketFrames, std::move(params_4));
    if (!f.ok()) co_return browser_failure(f);
    if (const auto* o = f.result.if_object())
      if (const auto* a = json::get_array(*o, "frames")) frames = *a;
    if (clear) {
      json::object params_5{{"tabId", *tab}, {"clear", true}};
      auto again = co_await ask(method_browser_getNetworkRequests, std::move(params_5));
      if (again.ok()) requests = std::move(again);
    }
  }
  const json::array* list = nullptr;
  if (const auto* o = requests.result.if_object()) list = json::get_array(*o, "requests");
  if (!list) co_return tools::call_result::text("Browser tool error: browser.getNetworkRequests returned no requests array", true, errc::tool_failed);
  auto har = build_har(*list, with_frames ? &frames : nullptr, OPENTABS_VERSION);
  const auto entries = static_cast<std::int64_t>(har["log"].as_object()["entries"].as_array().size());
  std::string text = json::dump_pretty(har);
  if (to_file) {
    auto file = save_output(args, text);
    if (!file) co_return tools::call_result::text("Browser tool error: could not save the HAR: " + file.err().message, true, errc::tool_failed);
    co_return tools::call_result::text(json::dump(json::object{
        {"savedTo", json::str(file->string())}, {"bytes", static_cast<std::int64_t>(text.size())}, {"entries", entries}}));
  }
  if (text.size() > max_inline_har_bytes) {
    co_return tools::call_result::text(json::dump(json::object{
        {"truncated", true},
        {"entries", entries},
        {"bytes", static_cast<std::int64_t>(text.size())},
        {"message", json::str("[... truncated: the HAR is " + std::to_string(text.size()) +
                              " bytes, over the inline limit of " + std::to_string(max_inline_har_bytes) +
                              "; call browser_export_har again with filePath to save it]")}}));
  }
  co_return tools::call_result::text(json::dump(json::object{{"har", json::str(text)}}));
}

// ---- plugin_analyze_site -------------------------------------------------------------------

namespace {

// Runs in the page (MAIN world) through an exec file; returns plain data only.
constexpr std::string_view detection_script = R"js(
const names = (s) => { try { return Object.keys(s).slice(0, 100); } catch { return []; } };
const baseline = new Set(Object.getOwnPropertyNames(Object.getPrototypeOf(window)).concat(['__openTabs', '__openTabsExec']));
const standard = document.createElement('iframe');
let standardGlobals = new Set();
try { standard.style.display = 'none'; document.documentElement.appendChild(standard); standardGlobals = new Set(Object.getOwnPropertyNames(standard.contentWindow)); standard.remove(); } catch {}
// Frames are not page globals: their indices ("0", "1") and named frames are windows.
const isFrame = (k) => { try { const v = window[k]; return v != null && v.window === v; } catch { return false; } };
const globals = Object.getOwnPropertyNames(window).filter((k) => !/^[0-9]+$/.test(k) && !standardGlobals.has(k) && !baseline.has(k) && !isFrame(k)).slice(0, 60);
const frameworks = [];
if (window.React || document.querySelector('[data-reactroot]') || [...document.querySelectorAll('body *')].slice(0, 300).some((e) => Object.keys(e).some((k) => k.startsWith('__react')))) frameworks.push('React');
if (window.__NEXT_DATA__) frameworks.push('Next.js');
if (window.__NUXT__) frameworks.push('Nuxt');
if (window.Vue || document.querySelector('[data-v-app]') || window.__VUE__) frameworks.push('Vue');
if (document.querySelector('[ng-version]')) frameworks.push('Angular');
if (window.jQuery) frameworks.push('jQuery');
if (document.querySelector('[class*="svelte-"]')) frameworks.push('Svelte');
const forms = [...document.forms].slice(0, 20).map((f) => ({ action: f.getAttribute('action') || '', method: (f.getAttribute('method') || 'get').toLowerCase(), id: f.id || undefined,
  fields: [...f.elements].slice(0, 30).filter((e) => e.name).map((e) => ({ name: e.name, type: e.type })) }));
const meta = [...document.querySelectorAll('meta[name]')].map((m) => m.getAttribute('name')).filter((n) => /csrf|token|api|app/i.test(n)).slice(0, 20);
return { title: document.title, url: location.href, frameworks, globals, forms, csrfMeta: meta,
  localStorageKeys: names(localStorage), sessionStorageKeys: names(sessionStorage) };
)js";

std::string path_of(std::string_view url) {
  auto scheme = url.find("://");
  if (scheme == std::string_view::npos) return std::string(url);
  auto slash = url.find('/', scheme + 3);
  if (slash == std::string_view::npos) return "/";
  auto path = url.substr(slash);
  if (auto q = path.find_first_of("?#"); q != std::string_view::npos) path = path.substr(0, q);
  return std::string(path);
}

std::string snake_tool_name(std::string_view method, std::string_view path) {
  std::string out;
  for (char c : method) out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  for (char c : path) {
    if (std::isalnum(static_cast<unsigned char>(c))) out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    else if (!out.empty() && out.back() != '_') out.push_back('_');
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out.substr(0, 60);
}

// What plugin_analyze_site learns from the page's network traffic: its same-origin-ish
// JSON/XHR calls grouped by method + path, the headers that look like credentials, and
// whether it speaks GraphQL.
struct site_traffic {
  std::map<std::string, json::object> apis;
  std::set<std::string> auth_headers;
  bool graphql = false;
};

bool is_auth_header(const std::string& lowercase_name) {
  return lowercase_name == "authorization" || lowercase_name.find("token") != std::string::npos ||
         lowercase_name.find("csrf") != std::string::npos || lowercase_name.find("api-key") != std::string::npos;
}

// browser.getNetworkRequests' result read into site_traffic.
site_traffic read_site_traffic(const json::value& requests_result) {
  site_traffic out;
  const auto* o = requests_result.if_object();
  const auto* list = o ? json::get_array(*o, "requests") : nullptr;
  if (!list) return out;
  for (const auto& rv : *list) {
    if (!rv.is_object()) continue;
    const auto& r = rv.get_object();
    const std::string type = str_or(r, "type");
    const std::string mime = str_or(r, "mimeType");
    const std::string rurl = str_or(r, "url");
    if (rurl.find("graphql") != std::string::npos) out.graphql = true;
    if (const auto* h = json::get_object(r, "requestHeaders"))
      for (const auto& [k, v] : *h) {
        std::string key(k);
        std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return std::tolower(c); });
        if (is_auth_header(key)) out.auth_headers.insert(key);
      }
    if (type != "XHR" && type != "Fetch" && mime.find("json") == std::string::npos) continue;
    const std::string method = str_or(r, "method", "GET");
    auto& api = out.apis[method + " " + path_of(rurl)];
    api["method"] = json::str(method);
    api["path"] = json::str(path_of(rurl));
    api["status"] = json::get_int(r, "status").value_or(0);
    api["mimeType"] = json::str(mime);
    api["count"] = json::get_int(api, "count").value_or(0) + 1;
  }
  return out;
}

// The report's auth, apis (at most 50, each with a tool suggestion), graphql and
// webSocketFrames, from the traffic and browser.getCookies / getWebSocketFrames results.
void add_site_findings(json::object& report, site_traffic traffic, const json::value& cookies_result,
                       const json::value& frames_result) {
  json::array api_list;
  json::array suggestions;
  for (auto& [key, api] : traffic.apis) {
    const std::string method(api["method"].as_string());
    const std::string path(api["path"].as_string());
    suggestions.push_back(json::object{
        {"toolName", json::str(snake_tool_name(method, path))},
        {"description", json::str("Call " + method + " " + path + " as the page does")},
        {"approach", json::str("fetch('" + path + "', {method:'" + method + "', credentials:'include'}) from the adapter, reusing the page's session")},
        {"complexity", json::str(method == "GET" ? "low" : "medium")}});
    api_list.push_back(std::move(api));
    if (api_list.size() >= 50) break;
  }
  json::array cookie_names;
  if (const auto* o = cookies_result.if_object())
    if (const auto* list = json::get_array(*o, "cookies"))
      for (const auto& c : *list)
        if (c.is_object())
          if (const auto* n = json::get_string(c.get_object(), "name")) cookie_names.push_back(*n);
  json::array auth_list;
  for (const auto& h : traffic.auth_headers) auth_list.push_back(json::str(h));
  std::size_t ws_count = 0;
  if (const auto* o = frames_result.if_object())
    if (const auto* list = json::get_array(*o, "frames")) ws_count = list->size();
  report["auth"] = json::object{{"cookieNames", std::move(cookie_names)}, {"authHeaders", std::move(auth_list)}};
  report["apis"] = std::move(api_list);
  report["graphql"] = traffic.graphql;
  report["webSocketFrames"] = static_cast<std::int64_t>(ws_count);
  report["suggestions"] = std::move(suggestions);
}

}  // namespace

net::awaitable<tools::call_result> browser_tools::analyze_site(const json::object& args) {
  const auto* url = json::get_string(args, "url");
  const auto wait_seconds = std::clamp<std::int64_t>(json::get_int(args, "waitSeconds").value_or(5), 0, 25);
  if (!url) co_return tools::call_result::text("Browser tool error: url is required", true, errc::tool_failed);
  json::object params_6{{"url", *url}, {"active", false}};
  auto opened = co_await ask(method_browser_openTab, std::move(params_6));
  if (!opened.ok()) co_return browser_failure(opened);
  const json::object* tab_obj = opened.result.if_object();
  auto tab = tab_obj ? json::get_int(*tab_obj, "id") : std::nullopt;
  if (!tab) co_return tools::call_result::text("Browser tool error: browser.openTab returned no tab id", true, errc::tool_failed);

  json::object report{{"url", *url}};
  std::string failure;
  json::object params_7{{"tabId", *tab}, {"maxRequests", 500}};
  auto capture = co_await ask(method_browser_enableNetworkCapture, std::move(params_7));
  if (!capture.ok()) failure = "network capture: " + capture.message;
  // Load again now that capture records, then let the page settle.
  if (failure.empty()) {
    json::object params_8{{"tabId", *tab}, {"url", *url}};
    auto nav = co_await ask(method_browser_navigateTab, std::move(params_8));
    if (!nav.ok()) failure = "navigation: " + nav.message;
  }
  if (failure.empty()) {
    json::object wait_params{{"tabId", *tab}, {"selector", "body"}, {"timeout", 15000}, {"visible", false}};
    auto wait = co_await ask(method_browser_waitForElement, std::move(wait_params));
    asio::steady_timer timer(co_await asio::this_coro::executor);
    timer.expires_after(std::chrono::seconds(wait_seconds));
    co_await timer.async_wait(asio::use_awaitable);
    auto page = co_await run_exec_file(*tab, detection_script);
    if (page.ok()) {
      if (const auto* o = page.result.if_object())
        if (const auto* v = json::find(*o, "value")) report["page"] = *v;
    } else {
      report["pageError"] = json::str(page.message);
    }
    json::object params_9{{"tabId", *tab}};
    auto requests = co_await ask(method_browser_getNetworkRequests, std::move(params_9));
    json::object params_10{{"tabId", *tab}};
    auto frames = co_await ask(method_browser_getWebSocketFrames, std::move(params_10));
    json::object params_11{{"url", *url}};
    auto cookies = co_await ask(method_browser_getCookies, std::move(params_11));

    add_site_findings(report, read_site_traffic(requests.result), cookies.result, frames.result);
    (void)wait;
  }
  json::object params_12{{"tabId", *tab}};
  co_await ask(method_browser_disableNetworkCapture, std::move(params_12));
  json::object params_13{{"tabId", *tab}};
  co_await ask(method_browser_closeTab, std::move(params_13));
  if (!failure.empty()) co_return tools::call_result::text("Browser tool error: plugin_analyze_site failed at " + failure, true, errc::tool_failed);
  co_return tools::call_result::text(json::dump(report));
}

}  // namespace opentabs::app
