// The one pipeline every caller uses to list and call tools: MCP (/mcp), the gateway's
// opentabs_call, and REST (/tools/:name/call).  Implemented by the app (permission gate,
// confirmation, validation, dispatch to the extension, audit); the transports only
// translate.  Everything runs on the server's io_context thread.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <asio/awaitable.hpp>

#include "json/json.hpp"
#include "util/errc.hpp"

namespace opentabs::tools {

// Lets a caller abandon a call (MCP notifications/cancelled, client gone).  The pipeline
// registers what to undo; cancel() runs it at most once.
class cancel_source {
 public:
  void cancel() {
    if (cancelled_) return;
    cancelled_ = true;
    if (hook_) {
      auto h = std::move(hook_);
      h();
    }
  }
  bool cancelled() const { return cancelled_; }
  void on_cancel(std::function<void()> hook) { hook_ = std::move(hook); }
  void clear_hook() { hook_ = nullptr; }

 private:
  bool cancelled_ = false;
  std::function<void()> hook_;
};

struct progress_update {
  double progress = 0;
  std::optional<double> total;
  std::string message;  // empty: none
};

struct call_options {
  // Called for each progress report; null when the caller cannot forward progress
  // (MCP: no progressToken; REST).
  std::function<void(const progress_update&)> on_progress;
  std::shared_ptr<cancel_source> cancel;  // may be null
  std::string origin = "mcp";              // "mcp", "gateway", "rest" — for logs
};

// A CallToolResult: MCP content blocks plus isError.
struct call_result {
  json::array content;
  bool is_error = false;
  // Why the call failed, as a category each transport maps once: REST through
  // net::http_status_for (none: 200), MCP by treating not_found (an unknown tool) as a
  // protocol error.  tool_failed: the tool failed or was refused; not_found: no such tool;
  // rate_limited: too many calls in flight.  None for results that only set isError.
  std::optional<errc> failure;

  static call_result text(std::string text, bool is_error = false, std::optional<errc> failure = std::nullopt);
  json::object to_json() const;
};

// One entry of tools/list: description already carries the permission prefix.
struct listed_tool {
  std::string name;
  std::string description;
  json::object input_schema;
  std::string plugin;  // plugin name, "browser" or "platform"
};

class tool_service {
 public:
  virtual ~tool_service() = default;
  // Every tool in tools/list order (spec §6.2): plugin tools, browser tools, platform tools.
  virtual std::vector<listed_tool> list_tools() const = 0;
  // Runs one call through the whole pipeline; never throws for expected failures (they
  // come back as is_error results).
  virtual asio::awaitable<call_result> call_tool(std::string name, json::object arguments, call_options options) = 0;
};

}  // namespace opentabs::tools
