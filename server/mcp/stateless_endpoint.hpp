// The MCP 2026-07-28 side of an endpoint: no sessions, one JSON-RPC message per POST, its
// _meta and headers checked on every request (modern_request).  It answers server/discover,
// tools/list (cacheable), tools/call (through the shared call_runner on an SSE stream, or
// through the task_runner for clients that declared the tasks extension), tasks/get,
// tasks/update and tasks/cancel, resources/list, resources/templates/list and resources/read
// (resource_requests, cacheable), and holds the subscriptions/listen streams that carry
// tools/list_changed, resources/list_changed and resources/updated.  Removed methods (initialize, ping, logging/setLevel) and unknown ones
// are 404 with -32601.  Runs on the io thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "jsonrpc/jsonrpc.hpp"
#include "mcp/call_runner.hpp"
#include "mcp/client_activity.hpp"
#include "mcp/modern_request.hpp"
#include "mcp/prompt_requests.hpp"
#include "mcp/sse_stream.hpp"
#include "mcp/streamable_http.hpp"
#include "mcp/task_runner.hpp"
#include "mcp/tool_catalog.hpp"
#include "net/asio.hpp"
#include "net/http_exchange.hpp"
#include "tools/tool_service.hpp"

namespace opentabs::mcp {

class stateless_endpoint {
 public:
  struct settings {
    bool gateway = false;
    std::string server_version;
    std::chrono::milliseconds sse_keepalive_interval;  // on listen streams
    prompt_requests* prompts = nullptr;  // null: no prompts offered
    tools::resource_service* resources = nullptr;  // null: resources/* answer an empty listing
  };
  stateless_endpoint(asio::any_io_executor ex, tools::tool_service& service, tool_catalog& catalog, call_runner& calls,
                     task_runner& tasks, settings s);

  // One 2026-07-28 POST, its headers already accepted and its body parsed: the answer to
  // write, or already_answered() when it went out as an SSE stream (tools/call, listen).
  // `owner` holds what owns this endpoint while a task's call runs in the background.
  net::awaitable<request_answer> post(net::http_exchange& ex, const json::value& body, std::shared_ptr<const void> owner);

  // tools/list_changed to the listen streams that asked for it.
  void announce_tools_changed();
  // resources/updated and resources/list_changed to the listen streams that asked for them.
  void announce_resources_changed(const tools::resource_change& change);
  // Server shutdown: every listen stream is answered and ends.
  void shutdown();
  // Clients that sent a request within `window` (they have no session to count).
  std::size_t clients_within(std::chrono::milliseconds window) const { return clients_.count_within(window); }

 private:
  struct listener;
  net::awaitable<request_answer> tools_call(net::http_exchange& ex, const json::value& body, const jsonrpc::message& m,
                                         const client_context& client, std::shared_ptr<const void> owner);
  request_answer tools_list(const jsonrpc::message& m);
  std::optional<refusal> check_param_headers(const codec::http_request& req, const jsonrpc::message& m);
  net::awaitable<request_answer> listen(net::http_exchange& ex, const jsonrpc::message& m, const client_context& client);
  std::optional<net::http_response> refuse_listen(const jsonrpc::message& m, const std::string& identity);
  std::size_t listeners_of(const std::string& identity) const;
  void drop_gone_listeners();

  asio::any_io_executor exec_;
  tools::tool_service& service_;
  tool_catalog& catalog_;
  call_runner& calls_;
  task_runner& tasks_;
  settings settings_;
  bool shut_ = false;
  // Listen streams hold a connection each for as long as they are open: bounded per client
  // and in all, so one client cannot take the connection slots /health, other MCP clients
  // and the extension need.
  static constexpr std::size_t max_listeners_per_client = 4;
  static constexpr std::size_t max_listeners = 32;
  std::vector<std::shared_ptr<listener>> listeners_;  // open now
  recent_clients clients_;  // heard from lately
};

}  // namespace opentabs::mcp
