// The server-side parts of built-in browser tools (spec §5): browser_execute_script through
// an exec file in adapters/ (CSP-safe: the extension injects a file, never evaluates a
// string), browser_screenshot_tab as MCP image content or a saved PNG, browser_export_har
// (HAR 1.2 built here from the extension's capture buffers), browser_save_pdf (the
// extension's PDF saved under the output-file rules), plugin_analyze_site, and
// browser_upload_file and a drop's files (paths checked by output_file_policy::readable), and the request
// index of browser_get_network_requests.  The
// tool pipeline hands every validated browser-tool call to browser_tools::call first; calls
// it does not serve (nullopt) are forwarded to the extension unchanged.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "app/extension_hub.hpp"
#include "app/output_files.hpp"
#include "app/browser_backend.hpp"
#include "json/json.hpp"
#include "tools/tool.hpp"
#include "tools/tool_service.hpp"

namespace opentabs::app {

// Inline results above this size are refused with a hint to pass filePath instead.
inline constexpr std::size_t max_inline_har_bytes = 2 * 1024 * 1024;

class browser_tools final : public browser_tool_handler {
 public:
  // `output_folders` gives the folders filePath may name, read at each call so a config
  // reload applies at once.
  browser_tools(extension_hub& hub, std::filesystem::path adapters_dir, std::function<output_locations()> output_folders);

  net::awaitable<std::optional<tools::call_result>> call(const tools::tool_def& tool, json::object& args,
                                                         tools::call_options& options) override;

 private:
  net::awaitable<ext_reply> ask(const std::string& method, json::object params);
  net::awaitable<tools::call_result> execute_script(const json::object& args);
  // `client`: the caller's clientGroup (null: none), so the extension can refuse another client's tab.
  net::awaitable<ext_reply> run_exec_file(std::int64_t tab_id, std::string_view code, const json::value* client = nullptr);
  net::awaitable<tools::call_result> screenshot(const json::object& args);
  net::awaitable<tools::call_result> export_har(const json::object& args);
  // browser_upload_file's paths, a drop's files: forwarded to `method` once each passed the read policy.
  net::awaitable<tools::call_result> with_readable_files(const json::object& args, const std::string& key, const std::string& method);
  net::awaitable<tools::call_result> save_pdf(const json::object& args);
  net::awaitable<tools::call_result> analyze_site(const json::object& args);
  // Saves a tool's output where filePath says, under output_file_policy's rules.
  result<std::filesystem::path> save_output(const json::object& args, std::string_view content) const;

  extension_hub& hub_;
  std::filesystem::path adapters_dir_;
  std::function<output_locations()> output_folders_;
};

// ---- pure helpers, exposed for unit tests ----------------------------------------------------

// True when `code` reads as one JavaScript expression (console semantics: its value is the
// result), false when it is a statement body (which may `return`).  A conservative scanner:
// strings, template literals, comments and regex literals are skipped; a top-level `;`
// before the end, a leading statement keyword, or a top-level line break between two
// complete statements makes it a body.
bool looks_like_expression(std::string_view code);

// The exec file for `key`: runs `code` (wrapped as `return (<code>)` when it is an
// expression) in an async function and stores {value} or {error} under
// __openTabs.__execResult_<key> after setting __execStarted_<key>.
std::string exec_file_source(std::string_view key, std::string_view code);

// HAR 1.2 document from the extension's capture buffers (browser.getNetworkRequests
// `requests`, browser.getWebSocketFrames `frames`), entries sorted by start time.
json::object build_har(const json::array& requests, const json::array* ws_frames, std::string_view creator_version);

// At most this many requests are listed by browser_get_network_requests (the newest).
inline constexpr std::size_t max_network_index_lines = 500;

// browser_get_network_requests as text: a summary line, then one line per request
// "id method status type url size" (urls cut at 300 characters, failures as
// failed:<error>), then any paused requests.
std::string network_index(const json::object& reply, std::int64_t tab_id);

// Width and height of a PNG from its IHDR chunk; nullopt when the bytes are not a PNG.
std::optional<std::pair<std::uint32_t, std::uint32_t>> png_size(std::string_view png);


}  // namespace opentabs::app
