// The live sessions of one MCP endpoint: the session_table's records joined to their
// live_session state, lookup (ending sessions that idled out), creation within the
// per-minute bucket, ending, and the one coroutine per session that owns its idle
// deadline.  Server events reach every session through here: list_changed and plugin logs.
// Lives on the io thread.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "util/string_keyed.hpp"

#include "mcp/live_session.hpp"
#include "mcp/session_table.hpp"
#include "net/asio.hpp"
#include "net/task_group.hpp"
#include "tools/events.hpp"
#include "tools/tool_service.hpp"

namespace opentabs::mcp {

class session_registry {
 public:
  // `name` ("mcp", "mcp gateway") prefixes log lines.
  // `tasks` is the group the sessions' coroutines run in.
  // `service` (may be null) learns when the last session of a named client ends.
  session_registry(asio::any_io_executor ex, net::task_group& tasks, std::chrono::milliseconds idle_expiry,
                   int max_new_per_minute, std::string name, tools::tool_service* service = nullptr);

  session_table& table() { return table_; }
  std::size_t size() const { return table_.size(); }

  // The live session, or null when unknown, deleted or idled out (then it is ended now).
  std::shared_ptr<live_session> find(std::string_view id);
  // A new session and its coroutine, which holds `owner` (what keeps this registry alive)
  // until the session ends.  The caller has taken a slot with table().admit_new_session().
  std::shared_ptr<live_session> start(std::string protocol_version, std::shared_ptr<void> owner);
  // Ends one session; when it was the last of its client (clientInfo.name), the service's
  // client_ended is told.
  void end(std::shared_ptr<live_session> s, std::string_view why);
  // Server shutdown: every session ends and no client_ended is told (the browser keeps the
  // clients' tabs as they are).
  void end_all(std::string_view why);

  // notifications/tools/list_changed to every session (kept for its standalone stream when
  // it has none open).
  void announce_tools_changed();
  // notifications/message to every session whose log level admits it.
  void announce_plugin_log(const tools::plugin_log_entry& entry);
  // notifications/resources/updated to the sessions subscribed to each URI, and
  // notifications/resources/list_changed to every session when the listing changed (on an
  // open stream; a session without one misses them and re-reads when it asks next).
  void announce_resources_changed(const tools::resource_change& change);

 private:
  net::awaitable<void> life(std::shared_ptr<live_session> s, std::shared_ptr<void> owner);

  asio::any_io_executor ex_;
  net::task_group& tasks_;
  session_table table_;
  std::string name_;
  tools::tool_service* service_;
  bool ending_all_ = false;
  string_map<std::shared_ptr<live_session>> sessions_;
};

}  // namespace opentabs::mcp
