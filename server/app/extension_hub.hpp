// The server's side of the extension channel (/ws, spec §3): every connected extension
// (one per browser profile, identified by connectionId), their tab maps, sending and
// broadcasting, and requests that wait for a reply (tool.dispatch, browser.*).  Inbound
// methods are looked up in one method table (jsonrpc/method_table.hpp) that the hub
// (ping, tool.progress), extension_handlers, webmcp_bridge and plugin_manager fill, so
// protocol policy stays out of the socket code.  Lives on the io_context thread.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/dispatch_table.hpp"
#include "app/tab_map.hpp"
#include "app/extension_capabilities.hpp"
#include "json/json.hpp"
#include "jsonrpc/method_table.hpp"
#include "net/asio.hpp"
#include "net/deadline_set.hpp"
#include "net/event.hpp"
#include "net/http_exchange.hpp"
#include "tools/tool_service.hpp"

namespace opentabs::app {

struct ext_connection {
  std::string id;     // the extension's connectionId (or a random one)
  std::string label;  // "A", "B", ... stable per id, for logs
  tab_map tabs;       // what tab.syncAll / tab.stateChanged reported
  bool tabs_synced = false;  // its first tab.syncAll arrived (tabs_synced)

  // The request methods it handles (extension.capabilities; unannounced = the original set).
  extension_capabilities capabilities;
  std::function<bool(std::string_view)> send;  // queues one text frame
  std::function<void(std::uint16_t, std::string_view)> close;

  // The inbound rate window (kMaxInboundPerSecond messages per second).
  clock_type::time_point window_start = clock_type::now();
  int in_window = 0;
  bool warned = false;
};

struct request_options {
  std::string connection_id;  // empty: the hub picks (only one connection → it)
  std::string plugin;         // concurrency accounting
  std::string label;          // for the timeout message
  // Called with each tool.progress for this request.
  std::function<void(double progress, std::optional<double> total, const std::string& message)> on_progress;
  std::shared_ptr<tools::cancel_source> cancel;  // may be null; a cancel ends the wait as cancelled
};

// Whoever must know when an extension connection comes and goes (the server greets a new
// one with sync.full; a closed one takes its WebMCP tools and, when it was the last, the
// open confirmations with it).  Both run on the io thread.
class connection_listener {
 public:
  // Right after the handshake, before any frame of the connection is handled.
  virtual void connection_opened(ext_connection& c) = 0;
  // After the connection was forgotten and its pending requests failed.
  virtual void connection_closed(const std::string& id) = 0;

 protected:
  ~connection_listener() = default;
};

class extension_hub {
 public:
  // What handling one inbound message produced: nothing (notifications), a reply object
  // holding "result" or "error" (requests), or "answered later" (the handler keeps `id`
  // and replies through send_to when its asynchronous work is done).
  struct inbound_outcome {
    // none: the handler declined (a request gets -32601, as for an unknown method);
    // handled: done, and the protocol defines no reply (tab.*, plugin.log,
    // confirmation.response); reply: send body; deferred: answered later.
    enum class kind { none, handled, reply, deferred } what = kind::none;
    json::object body;
  };
  // Handles one inbound request (id non-null) or notification of the method it was
  // registered for.  Runs on the io thread.
  using method_handler = std::function<inbound_outcome(ext_connection&, const json::object& params, const json::value* id)>;
  using method_table = jsonrpc::method_table<method_handler>;

  // `listener` outlives the hub.
  extension_hub(asio::any_io_executor ex, dispatch_timing timing, connection_listener& listener);

  // The one table of methods the extension may send; a name missing from it answers -32601.
  method_table& methods() { return methods_; }

  // Serves one /ws upgrade for the lifetime of the socket.  `connection_id` comes from the
  // subprotocol list (empty if the extension sent none).  The socket's part is only this:
  // attach, receive each text frame, detach — the rest is the hub's, whatever carries the frames.
  net::awaitable<void> serve(net::http_exchange& ex, std::string connection_id);

  // Registers a connection whose frames go out through `send` and which `close` ends; a
  // connection of the same id (or, without an id, the only one) is closed and replaced.
  // Then the listener hears of it.  Null while shutting down.  The caller calls detach() when the
  // connection ends, however it ends.
  std::shared_ptr<ext_connection> attach(std::string connection_id, std::function<bool(std::string_view)> send,
                                         std::function<void(std::uint16_t, std::string_view)> close);
  // One inbound text frame of `c`.  False when handling it failed unexpectedly: the caller
  // closes the connection with 1011.
  bool receive(ext_connection& c, std::string_view text);
  // Unhooks `c`'s send and close, fails its pending requests and forgets it (then the
  // listener hears of it).
  void detach(const std::shared_ptr<ext_connection>& c);

  // Sends one message to every connection (the original broadcasts all notifications).
  void broadcast(const json::object& message);
  // The same for a message that is already JSON text.
  void broadcast_text(std::string_view message);
  bool send_to(const std::string& connection_id, const json::object& message);

  // Where the opentabs extension is to be loaded from, named when a connection cannot
  // handle a request (the extension folder, or how to install ours there).
  void set_install_hint(std::string hint) { install_hint_ = std::move(hint); }
  const std::string& install_hint() const { return install_hint_; }

  // Sends a request and waits for its answer (never throws for expected failures).  A method
  // the chosen connection does not handle fails at once (kind::unsupported) instead of
  // waiting for a timeout.  The frame is extension_wire.hpp's request_frame.
  net::awaitable<ext_reply> request(std::string method, json::object params, request_options options);

  // Forwards a tool.progress report to the waiting request; false when unknown.
  bool report_progress(const std::string& dispatch_id, double progress, std::optional<double> total,
                       const std::string& message);

  // A call that needs the browser while no extension is connected waits up to
  // reconnect_wait for one that is expected back: the server started, or the last
  // connection closed, less than twice that long ago (the extension retries on a timer of its
  // own after the server it talks to starts or restarts, as when a stdio bridge auto-starts
  // it; the window covers that retry).
  // True when a connection is there.  0 turns the wait off.  `tabs_too`: within the same
  // deadline, also wait until a connection reported its tabs (tab.syncAll), so a plugin call
  // made during a reconnect is not answered "No matching tab" by an extension that has not
  // injected its adapters yet.
  net::awaitable<bool> await_expected_extension(bool tabs_too);
  // A connection's tab.syncAll arrived: wakes the calls waiting for one.
  void tabs_synced(ext_connection& c);
  // None is connected and one is expected back (the rule above).
  bool extension_expected() const;
  void set_reconnect_wait(std::chrono::milliseconds wait) { reconnect_wait_ = wait; }
  std::chrono::milliseconds reconnect_wait() const { return reconnect_wait_; }
  static constexpr std::chrono::milliseconds default_reconnect_wait{5000};

  std::size_t connection_count() const { return connections_.size(); }
  bool connected() const { return !connections_.empty(); }
  std::vector<ext_connection*> connections();
  std::vector<const ext_connection*> connections() const;
  ext_connection* find(const std::string& id);
  std::size_t open_requests_for_plugin(const std::string& plugin) const { return table_.open_for_plugin(plugin); }

  // Picks the connection for a call per spec §3.7 step 6.
  std::string choose_connection(const std::string& requested, std::optional<std::int64_t> tab_id,
                                const std::string& plugin) const;
  // browser_list_tabs rebuilds the tab → connection ownership index.
  void set_tab_owner(std::int64_t tab_id, const std::string& connection_id) { tab_owner_[tab_id] = connection_id; }

  // Fails every pending request and closes every socket with 1001.
  void shutdown();

  asio::any_io_executor executor() const { return ex_; }

 private:
  struct waiter;
  // Detaches a connection when serve() ends, however it ends.  (A frame destroyed with the
  // io_context after the hub is gone finds `hub_alive` expired and only unhooks.)
  struct registration_guard {
    extension_hub& hub;
    std::weak_ptr<void> hub_alive;
    std::shared_ptr<ext_connection> conn;
    ~registration_guard();
  };
  // The connection that `id` (empty: a legacy extension) replaces, closed and dropped.
  void replace_previous(const std::string& id, bool legacy);
  // `over_limit`: the connection exceeded its inbound rate; only replies are still handled.
  void handle_text(ext_connection& c, std::string_view text, bool over_limit);
  void fail_oversize_reply(const ext_connection& c, std::string_view text);
  // By value: callers pass the map's own element, which erase() destroys.
  void drop_connection(std::shared_ptr<ext_connection> c);
  void wake(std::string_view id);

  asio::any_io_executor ex_;
  // The requests' reply deadlines, on one timer kept armed between calls (the server ends
  // with io_context::stop()).
  net::deadline_set deadlines_{ex_, net::deadline_set::when_empty::keep_timer};
  dispatch_table table_;
  method_table methods_;
  connection_listener& listener_;
  std::map<std::string, std::shared_ptr<ext_connection>> connections_;
  std::vector<std::string> order_;  // connection ids in connect order
  std::map<std::string, std::string> labels_;
  // The waiting request coroutines by request id.  Key and waiter live in the waiting
  // coroutine's frame, which removes its entry however it ends (waiter_entry).
  std::map<std::string_view, waiter*, std::less<>> waiters_;
  std::map<std::int64_t, std::string> tab_owner_;
  bool stopping_ = false;
  std::string install_hint_;
  std::chrono::milliseconds reconnect_wait_ = default_reconnect_wait;
  clock_type::time_point started_ = clock_type::now();
  std::optional<clock_type::time_point> last_close_;
  // Wake the callers of await_expected_extension when a connection opens, when one has
  // synced its tabs, and at shutdown.
  net::event connection_opened_{ex_};
  net::event tabs_synced_{ex_};
  std::shared_ptr<void> alive_ = std::make_shared<int>(0);  // expires with the hub
};

}  // namespace opentabs::app
