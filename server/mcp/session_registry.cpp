// The live sessions of one MCP endpoint (see session_registry.hpp).
#include "mcp/session_registry.hpp"

#include <exception>
#include <vector>

#include "jsonrpc/jsonrpc.hpp"
#include "mcp/log_level.hpp"
#include "net/task_group.hpp"
#include "util/log.hpp"

namespace opentabs::mcp {
namespace {

std::string short_id(std::string_view id) { return std::string(id.substr(0, 8)); }

}  // namespace

session_registry::session_registry(asio::any_io_executor ex, net::task_group& tasks, std::chrono::milliseconds idle_expiry,
                                   int max_new_per_minute, std::string name, tools::tool_service* service)
    : ex_(std::move(ex)), tasks_(tasks), table_(idle_expiry, max_new_per_minute), name_(std::move(name)), service_(service) {}

std::shared_ptr<live_session> session_registry::find(std::string_view id) {
  auto it = sessions_.find(id);
  if (it == sessions_.end()) return nullptr;
  if (!table_.find(id)) {  // idle-expired, its coroutine has not woken up yet
    end(it->second, "idle expiry");
    return nullptr;
  }
  return it->second;
}

std::shared_ptr<live_session> session_registry::start(std::string protocol_version, std::shared_ptr<void> owner) {
  auto s = std::make_shared<live_session>(ex_, table_.create(std::move(protocol_version)));
  sessions_.emplace(s->id, s);
  if (!tasks_.spawn(life(s, std::move(owner)), "mcp session coroutine")) {
    end(s, "server shutting down");  // the group is closed: no session outlives shutdown
  }
  return s;
}

void session_registry::end(std::shared_ptr<live_session> s, std::string_view why) {
  if (s->ended) return;
  s->end();
  table_.remove(s->id);
  sessions_.erase(s->id);
  log::info(name_ + " session " + short_id(s->id) + " ended (" + std::string(why) + ")");
  const std::string& client = s->rec->client_name;
  if (!service_ || ending_all_ || client.empty()) return;
  for (const auto& [id, other] : sessions_)
    if (other->rec->client_name == client) return;  // another session of the same client goes on
  service_->client_ended(client);
}

void session_registry::end_all(std::string_view why) {
  std::vector<std::shared_ptr<live_session>> all;
  for (auto& [id, s] : sessions_) all.push_back(s);
  ending_all_ = true;
  for (auto& s : all) end(s, why);
}

// Sleeps until the idle deadline, re-checks (activity moves the deadline), and ends the
// session when it passed.  Ends early when the session is deleted or the endpoint shuts
// down.  `owner` is only held: the coroutine frame keeps this registry's owner alive.
net::awaitable<void> session_registry::life(std::shared_ptr<live_session> s, [[maybe_unused]] std::shared_ptr<void> owner) {
  while (!s->ended) {
    co_await s->life_changed.wait_until(table_.next_check(*s->rec));
    if (s->ended) break;
    if (table_.expired(*s->rec)) end(s, "idle expiry");
  }
}

void session_registry::announce_tools_changed() {
  const auto note = jsonrpc::notification_json("notifications/tools/list_changed");
  for (auto& [id, s] : sessions_) {
    if (s->deliver_unsolicited(note, "")) continue;
    s->list_changed_pending = true;  // sent when the standalone stream opens
  }
}

void session_registry::announce_plugin_log(const tools::plugin_log_entry& entry) {
  const auto level = plugin_log_level(entry.level);
  std::string note;
  for (auto& [id, s] : sessions_) {
    if (!s->rec->log.passes(level)) continue;
    if (note.empty()) note = jsonrpc::notification_json("notifications/message", plugin_log_params(entry));
    s->deliver_unsolicited(note, entry.plugin);
  }
}

void session_registry::announce_resources_changed(const tools::resource_change& change) {
  const auto list_note = change.list_changed ? jsonrpc::notification_json("notifications/resources/list_changed") : std::string();
  for (auto& [id, s] : sessions_) {
    if (!list_note.empty()) s->deliver_unsolicited(list_note, "");
    for (const auto& uri : change.updated)
      if (s->subscribed_resources.has(uri))
        s->deliver_unsolicited(jsonrpc::notification_json("notifications/resources/updated", json::object{{"uri", json::str(uri)}}), "");
  }
}

}  // namespace opentabs::mcp
