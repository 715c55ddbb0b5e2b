// The MCP 2025-11-25 side of an endpoint (and the earlier revisions it still speaks): a
// POST initialize without Mcp-Session-Id starts a session (session_registry, at most
// max_new_sessions_per_minute); a POST to a session answers its messages - in one JSON
// response, from the cached tools listing, or over SSE when a tools/call is among them
// (run through the shared call_runner); GET opens the session's standalone stream; DELETE
// ends the session.  Runs on the io thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "jsonrpc/jsonrpc.hpp"
#include "mcp/call_runner.hpp"
#include "mcp/live_session.hpp"
#include "mcp/request_methods.hpp"
#include "mcp/session_registry.hpp"
#include "mcp/sse_stream.hpp"
#include "mcp/streamable_http.hpp"
#include "mcp/tool_catalog.hpp"
#include "net/asio.hpp"
#include "net/http_exchange.hpp"
#include "net/task_group.hpp"
#include "tools/tool_service.hpp"

namespace opentabs::mcp {

class session_endpoint {
 public:
  struct settings {
    bool gateway = false;
    std::string server_version;
    std::chrono::milliseconds session_idle_expiry;
    int max_new_sessions_per_minute = 5;
    std::chrono::milliseconds sse_keepalive_interval;  // on standalone GET streams
    std::size_t max_batch_messages = 100;
    prompt_requests* prompts = nullptr;  // null: no prompts offered
    tools::resource_service* resources = nullptr;  // null: resources/* answer an empty listing
  };
  // `group`: where the sessions' coroutines run.
  session_endpoint(asio::any_io_executor ex, tools::tool_service& service, tool_catalog& catalog, call_runner& calls,
                   net::task_group& group, settings s);

  // One POST of a session's revision, its headers already accepted and its body parsed: the
  // answer to write, or already_answered() when it went out as an SSE stream.  `owner`:
  // what keeps this endpoint alive, held by a session started here.
  net::awaitable<request_answer> post(net::http_exchange& ex, const json::value& body, std::shared_ptr<void> owner);
  // GET: the session's standalone stream (a newer GET takes over from an older one), held
  // until the session ends or the client goes; already_answered() then, else the refusal.
  net::awaitable<request_answer> get(net::http_exchange& ex);
  // DELETE: ends the session; the response.
  net::http_response del(const codec::http_request& req);
  // A request naming a session that is gone gets 404 before its Accept header is judged:
  // the client's next step is a new initialize, not a new header.
  std::optional<net::http_response> stale_session_refusal(const codec::http_request& req);

  void announce_tools_changed() { sessions_.announce_tools_changed(); }
  void announce_plugin_log(const tools::plugin_log_entry& entry) { sessions_.announce_plugin_log(entry); }
  void announce_resources_changed(const tools::resource_change& change) { sessions_.announce_resources_changed(change); }
  void end_all(std::string_view reason) { sessions_.end_all(reason); }
  std::size_t session_count() const { return sessions_.size(); }
  client_counts counts(std::chrono::milliseconds window) const { return table_.counts(window); }

 private:
  std::string_view name() const { return settings_.gateway ? "mcp gateway" : "mcp"; }
  std::variant<std::shared_ptr<live_session>, net::http_response> find_session(const codec::http_request& req);
  net::http_response answer_without_session(const json::value& body, std::shared_ptr<void> owner);
  net::awaitable<request_answer> post_in_session(net::http_exchange& ex, const std::shared_ptr<live_session>& s, const json::value& body,
                                              const post_messages& posted);
  request_answer cached_listing_answer(const codec::http_request& req, const json::value& id);
  net::awaitable<request_answer> answer_in_one_response(const std::shared_ptr<live_session>& s, const post_messages& posted);
  net::awaitable<void> answer_in_stream(net::http_exchange& ex, const std::shared_ptr<live_session>& s, const post_messages& posted);
  net::awaitable<std::optional<std::string>> run_request(std::shared_ptr<live_session> s, const jsonrpc::message& m,
                                                         std::shared_ptr<stream_sink> sink);

  asio::any_io_executor exec_;
  tool_catalog& catalog_;
  call_runner& calls_;
  settings settings_;
  session_registry sessions_;
  session_table& table_;
  request_methods methods_;
};

}  // namespace opentabs::mcp
