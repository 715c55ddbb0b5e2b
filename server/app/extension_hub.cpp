#include "app/extension_hub.hpp"

#include <algorithm>

#include "app/cancel_link.hpp"
#include "app/extension_wire.hpp"
#include "app/original_lines.hpp"
#include "app/oversize_reply.hpp"
#include "codec/ws_codec.hpp"
#include "jsonrpc/jsonrpc.hpp"
#include "net/ws_connection.hpp"
#include "util/log.hpp"
#include "util/original_log.hpp"
#include "util/random.hpp"
#include "util/test_fault.hpp"

namespace opentabs::app {


namespace {

// Frames above this are ignored (logged); the decoder closes with 1009 above 20 MiB.
constexpr std::size_t kMaxHandledMessage = 10 * 1024 * 1024;
// Inbound messages one connection may send per second before we drop (a runaway page
// flooding plugin.log must not starve everyone else).
constexpr int kMaxInboundPerSecond = 2000;

std::string next_label(std::size_t n) {
  std::string s;
  do {
    s.insert(s.begin(), static_cast<char>('A' + n % 26));
    n /= 26;
  } while (n-- > 0 && s.size() < 4);
  return s;
}

// Runs `handle`; what it threw, if anything, as text.
template <class F>
std::optional<std::string> failure_of(F&& handle) {
  try {
    handle();
    return std::nullopt;
  } catch (const std::exception& e) {
    return std::string(e.what());
  } catch (...) {
    return std::string("an exception of unknown type");
  }
}

}  // namespace

// A request coroutine waiting for its reply: `wake` is notified by wake() (a reply, a
// cancel) and by the request's deadline.  The deadline is kept in the hub's deadline_set,
// so a call does not arm a deadline timer of its own (a timerfd update and a timer-heap
// insert and removal per call).
struct extension_hub::waiter {
  waiter(asio::any_io_executor ex, net::deadline_set& deadlines) : wake(ex), due(deadlines, [this] { wake.notify_all(); }) {}
  net::event wake;
  net::deadline_set::entry due;
  std::function<void(double, std::optional<double>, const std::string&)> on_progress;
};

namespace {

// Registers a waiter of request's frame for its id and unregisters it when the frame
// ends, however it ends (also when the frame is destroyed unresumed at shutdown; a hub
// already gone is then left alone).
template <class Map, class Waiter>
struct waiter_entry {
  Map& waiters;
  std::weak_ptr<void> hub_alive;
  std::string_view id;
  Waiter* waiter;
  waiter_entry(Map& m, std::weak_ptr<void> alive, std::string_view i, Waiter* w)
      : waiters(m), hub_alive(std::move(alive)), id(i), waiter(w) {
    waiters.emplace(id, w);
  }
  ~waiter_entry() {
    if (hub_alive.expired()) return;
    if (auto it = waiters.find(id); it != waiters.end() && it->second == waiter) waiters.erase(it);
  }
  waiter_entry(const waiter_entry&) = delete;
  waiter_entry& operator=(const waiter_entry&) = delete;
};

}  // namespace

extension_hub::extension_hub(asio::any_io_executor ex, dispatch_timing timing, connection_listener& listener)
    : ex_(ex), table_(timing), listener_(listener) {
  using jsonrpc::params_kind, jsonrpc::call_kind, jsonrpc::rate_class;
  methods_.add("ping", {[](ext_connection& c, const json::object&, const json::value*) {
                          c.send(jsonrpc::notification_json("pong"));
                          return inbound_outcome{inbound_outcome::kind::handled, {}};
                        },
                        params_kind::none, call_kind::either, rate_class::limited});
  // Progress of one of our own requests (spec §3.3): pushes its deadline out.
  methods_.add("tool.progress", {[this](ext_connection&, const json::object& params, const json::value*) {
                                   const auto* did = json::get_string(params, "dispatchId");
                                   auto progress = json::get_number(params, "progress");
                                   const auto* m = json::get_string(params, "message");
                                   if (did && progress)
                                     report_progress(std::string(*did), *progress, json::get_number(params, "total"),
                                                     m ? std::string(*m) : "");
                                   return inbound_outcome{inbound_outcome::kind::handled, {}};
                                 },
                                 params_kind::object, call_kind::either, rate_class::limited});
}

std::vector<ext_connection*> extension_hub::connections() {
  std::vector<ext_connection*> out;
  for (const auto& id : order_) {
    auto it = connections_.find(id);
    if (it != connections_.end()) out.push_back(it->second.get());
  }
  return out;
}

std::vector<const ext_connection*> extension_hub::connections() const {
  std::vector<const ext_connection*> out;
  for (const auto& id : order_) {
    auto it = connections_.find(id);
    if (it != connections_.end()) out.push_back(it->second.get());
  }
  return out;
}

ext_connection* extension_hub::find(const std::string& id) {
  auto it = connections_.find(id);
  return it == connections_.end() ? nullptr : it->second.get();
}

net::awaitable<void> extension_hub::serve(net::http_exchange& ex, std::string connection_id) {
  auto upgraded = ex.upgrade("opentabs");
  if (!upgraded) {
    ex.respond(net::http_response::error(net::http_status_for(upgraded.err().kind), "bad_handshake", upgraded.err().message));
    co_return;
  }
  auto& ws = **upgraded;
  // The hub holds callbacks into `ws`, which dies with this coroutine: however the coroutine
  // ends (the peer left, an exception, the frame destroyed at shutdown), the guard unhooks
  // them and detaches the connection.
  registration_guard registered{*this, alive_, nullptr};
  registered.conn = attach(
      std::move(connection_id), [&ws](std::string_view text) { return ws.send_text(text); },
      [&ws](std::uint16_t code, std::string_view reason) { ws.close(code, reason); });
  if (!registered.conn) {
    ws.close(codec::close_code::going_away, "Server shutting down");
    co_return;
  }
  ext_connection& conn = *registered.conn;
  while (auto msg = co_await ws.read()) {
    if (msg->type != codec::ws_message::kind::text) continue;
    if (!receive(conn, msg->payload)) {
      ws.close(codec::close_code::internal_error, "Internal server error");
      break;
    }
  }
  log::info("extension disconnected (profile " + conn.label + ": " +
            (ws.end_reason().empty() ? std::string("closed by the server") : ws.end_reason()) + ")");
  log::original_line(original_lines::extension_disconnected(conn.label, conn.id));
}

void extension_hub::replace_previous(const std::string& id, bool legacy) {
  if (auto it = connections_.find(id); it != connections_.end()) {
    log::original_line(original_lines::closing_previous(id));
    auto previous = it->second;
    previous->close(codec::close_code::normal, "Replaced by same-profile reconnect");
    drop_connection(previous);
  } else if (legacy && connections_.size() == 1) {
    // Legacy single-connection mode: a client without an id replaces the only one.
    auto only = connections_.begin()->second;
    log::original_line(original_lines::closing_previous_without_id());
    only->close(codec::close_code::normal, "Replaced by new connection");
    drop_connection(only);
  }
}

std::shared_ptr<ext_connection> extension_hub::attach(std::string connection_id, std::function<bool(std::string_view)> send,
                                                      std::function<void(std::uint16_t, std::string_view)> close) {
  if (stopping_) return nullptr;
  const bool legacy = connection_id.empty();
  std::string id = legacy ? uuid_v4() : std::move(connection_id);
  replace_previous(id, legacy);
  auto conn = std::make_shared<ext_connection>();
  conn->id = id;
  if (!labels_.count(id)) labels_[id] = next_label(labels_.size());
  conn->label = labels_[id];
  conn->send = std::move(send);
  conn->close = std::move(close);
  connections_[id] = conn;
  order_.push_back(id);
  log::info("extension connected (profile " + conn->label + ", " + std::to_string(connections_.size()) +
            " connection(s))");
  log::original_line(original_lines::extension_connected(conn->label, conn->id));
  try {
    listener_.connection_opened(*conn);
  } catch (...) {
    detach(conn);  // the caller never got it, so nobody else would
    throw;
  }
  connection_opened_.notify_all();
  return conn;
}

bool extension_hub::receive(ext_connection& c, std::string_view text) {
  auto now = clock_type::now();
  if (now - c.window_start >= std::chrono::seconds(1)) {
    c.window_start = now;
    c.in_window = 0;
    c.warned = false;
  }
  // One message must not take the server down, nor leave this connection half alive: an
  // exception (std::bad_alloc was seen) closes this connection with 1011 and is logged once.
  auto failure = failure_of([&] {
    if (text.size() > kMaxHandledMessage) {
      fail_oversize_reply(c, text);
      return;
    }
    // The limit guards against floods of unsolicited messages; answers to our own requests
    // are bounded by what we asked and must never be dropped (a call would hang until its
    // timeout).
    bool over = ++c.in_window > kMaxInboundPerSecond;
    if (over && !c.warned) {
      log::warn("extension profile " + c.label + " exceeds " + std::to_string(kMaxInboundPerSecond) +
                " messages/s; dropping its requests and notifications until the next second");
      c.warned = true;
    }
    handle_text(c, text, over);
  });
  if (!failure) return true;
  log::error("extension profile " + c.label + ": handling a message failed unexpectedly (" + *failure +
             "); closing the connection with 1011");
  return false;
}

void extension_hub::detach(const std::shared_ptr<ext_connection>& c) {
  c->send = [](std::string_view) { return false; };
  c->close = [](std::uint16_t, std::string_view) {};
  drop_connection(c);
}

extension_hub::registration_guard::~registration_guard() {
  if (!conn) return;
  if (hub_alive.expired()) {
    conn->send = [](std::string_view) { return false; };
    conn->close = [](std::uint16_t, std::string_view) {};
    return;
  }
  try {
    hub.detach(conn);
  } catch (...) {
    // A destructor must not throw; the connection is already unhooked from the socket.
  }
}


void extension_hub::drop_connection(std::shared_ptr<ext_connection> c) {
  auto it = connections_.find(c->id);
  if (it == connections_.end() || it->second != c) return;
  connections_.erase(it);
  std::erase(order_, c->id);
  std::erase_if(tab_owner_, [&](const auto& kv) { return kv.second == c->id; });
  for (const auto& id : table_.fail_connection(c->id, "Extension disconnected")) wake(id);
  last_close_ = clock_type::now();
  listener_.connection_closed(c->id);
}

bool extension_hub::extension_expected() const {
  if (connected() || reconnect_wait_.count() <= 0 || stopping_) return false;
  const auto now = clock_type::now();
  const auto window = 2 * reconnect_wait_;
  return now - started_ < window || (last_close_ && now - *last_close_ < window);
}

net::awaitable<bool> extension_hub::await_expected_extension(bool tabs_too) {
  if (!extension_expected()) co_return connected();
  const auto deadline = clock_type::now() + reconnect_wait_;
  while (!connected() && !stopping_ && clock_type::now() < deadline) co_await connection_opened_.wait_until(deadline);
  auto any_synced = [this] {
    return std::ranges::any_of(connections_, [](const auto& kv) { return kv.second->tabs_synced; });
  };
  while (tabs_too && connected() && !any_synced() && !stopping_ && clock_type::now() < deadline)
    co_await tabs_synced_.wait_until(deadline);
  co_return connected();
}

void extension_hub::tabs_synced(ext_connection& c) {
  c.tabs_synced = true;
  tabs_synced_.notify_all();
}

void extension_hub::fail_oversize_reply(const ext_connection& c, std::string_view text) {
  const std::string size = std::to_string(text.size());
  auto id = leading_reply_id(text);
  const auto* pending = id ? table_.find(*id) : nullptr;
  if (!pending || pending->connection_id != c.id || pending->outcome) {
    log::warn("ignoring a " + size + "-byte message from the extension (limit " + std::to_string(kMaxHandledMessage) + " bytes)");
    return;
  }
  log::warn("the extension's " + size + "-byte reply to " + pending->label + " is over the limit; failing the call");
  ext_reply too_large;
  too_large.outcome = ext_reply::kind::error;
  too_large.code = jsonrpc::rpc_code::internal_error;
  too_large.message = "The extension's reply is too large (" + size +
                      " bytes, limit " + std::to_string(kMaxHandledMessage) + "); ask for less, e.g. with a selector, a limit or maxLength, or save it "
                      "to a file with filePath where the tool offers it";
  if (table_.settle(*id, std::move(too_large))) wake(*id);
}

void extension_hub::handle_text(ext_connection& c, std::string_view text, bool over_limit) {
  auto parsed = json::parse_object(text, {.max_bytes = kMaxHandledMessage, .max_depth = 64});
  if (!parsed) {
    log::debug("dropping an extension message: " + parsed.err().message);
    return;
  }
  auto env = jsonrpc::classify_peer(*parsed, {.null_id_is_absent = true});
  if (env.is_call()) {
    const bool is_request = env.kind == jsonrpc::envelope_kind::request;
    const auto* method = methods_.find(env.method, is_request);
    if (over_limit && !(method && method->rate == jsonrpc::rate_class::exempt)) return;
    auto answer = [&](json::object reply) {
      reply["jsonrpc"] = "2.0";
      reply["id"] = *env.id;
      c.send(json::dump(reply));
    };
    const json::object* params = env.params_object();
    if (!params) {
      if (is_request) answer(extension_error_reply(make_error(errc::invalid_params, "params must be an object")));
      return;
    }
    test_fault::throw_if_armed("ws-handler-throw", env.method);
    inbound_outcome out;
    if (method) out = method->handler(c, *params, env.id);
    else if (!is_request) log::debug("ignoring extension notification " + std::string(env.method.substr(0, 100)));
    if (!is_request || out.what == inbound_outcome::kind::deferred || out.what == inbound_outcome::kind::handled) return;
    answer(out.what == inbound_outcome::kind::reply
               ? std::move(out.body)
               : extension_error_reply(make_error(errc::method_not_found, jsonrpc::rpc_error::method_not_found(env.method).message)));
    return;
  }
  // A response to one of our requests (their ids are strings).
  if (env.kind != jsonrpc::envelope_kind::response || !env.id->is_string()) return;
  const std::string_view rid = env.id->get_string();  // lives in `parsed`
  ext_reply rep;
  if (env.error) {
    rep.outcome = ext_reply::kind::error;
    rep.code = json::get_int(*env.error, "code").value_or(jsonrpc::rpc_code::internal_error);
    if (const auto* m = json::get_string(*env.error, "message")) rep.message = std::string(*m);
    if (const auto* d = json::find(*env.error, "data")) rep.data = *d;
  } else if (env.result) {
    // `parsed` is ours and dies here: its result is moved out, not copied.
    rep.result = std::move(*parsed->if_contains("result"));
  } else {
    return;
  }
  if (table_.settle(rid, std::move(rep))) wake(rid);
  else log::debug("ignoring a late or duplicate reply " + std::string(rid));
}

void extension_hub::broadcast(const json::object& message) { broadcast_text(json::dump(message)); }

void extension_hub::broadcast_text(std::string_view message) {
  for (auto& [id, c] : connections_) c->send(message);
}

bool extension_hub::send_to(const std::string& connection_id, const json::object& message) {
  auto* c = find(connection_id);
  return c && c->send(json::dump(message));
}

std::string extension_hub::choose_connection(const std::string& requested, std::optional<std::int64_t> tab_id,
                                             const std::string& plugin) const {
  if (!requested.empty()) return connections_.count(requested) ? requested : std::string();
  if (connections_.empty()) return {};
  if (connections_.size() == 1) return connections_.begin()->first;
  if (tab_id) {
    if (auto it = tab_owner_.find(*tab_id); it != tab_owner_.end() && connections_.count(it->second)) return it->second;
    for (const auto& id : order_)
      if (connections_.at(id)->tabs.has_tab(*tab_id)) return id;
  }
  if (!plugin.empty()) {
    for (auto want : {tab_state::ready, tab_state::unavailable})
      for (const auto& id : order_)
        if (connections_.at(id)->tabs.state_of(plugin) == want) return id;
  }
  return order_.empty() ? connections_.begin()->first : order_.front();
}

net::awaitable<ext_reply> extension_hub::request(std::string method, json::object params, request_options options) {
  if (stopping_) co_return ext_reply{ext_reply::kind::shutdown, {}, 0, "Server shutting down", {}};
  std::string conn_id = options.connection_id.empty() ? choose_connection("", std::nullopt, options.plugin)
                                                      : choose_connection(options.connection_id, std::nullopt, "");
  if (conn_id.empty())
    co_return ext_reply{ext_reply::kind::not_sent, {}, 0, "Extension not connected", {}};
  if (auto* c = find(conn_id); c && !c->capabilities.supports(method))
    co_return ext_reply{ext_reply::kind::unsupported, {}, 0, unsupported_method_message(method, install_hint_), {}};
  std::string id = uuid_v4();
  table_.add(id, conn_id, options.plugin, options.label.empty() ? method : options.label, clock_type::now());
  waiter w(ex_, deadlines_);
  w.on_progress = std::move(options.on_progress);
  waiter_entry<decltype(waiters_), waiter> registered{waiters_, alive_, id, &w};
  cancel_link link(options.cancel, [this, id] {
    if (table_.settle(id, ext_reply{ext_reply::kind::cancelled, {}, 0, "Cancelled by the client", {}})) wake(id);
  });
  const std::string frame = request_frame(method, id, std::move(params));
  // A send that fails settles the request at once; the wait below then returns immediately.
  auto* target = find(conn_id);
  if (!target || !target->send(frame)) table_.settle(id, ext_reply{ext_reply::kind::disconnected, {}, 0, "Extension disconnected", {}});
  try {
    while (true) {
      const auto* rec = table_.find(id);
      if (!rec || rec->outcome) break;
      if (table_.expire_if_due(id, clock_type::now())) break;
      w.due.expire_at(rec->deadline);
      co_await w.wake.wait();
    }
  } catch (...) {
    // The awaiting coroutine was cancelled from outside: forget the request.
    table_.settle(id, ext_reply{ext_reply::kind::cancelled, {}, 0, "Cancelled", {}});
    table_.take(id);
    throw;
  }
  auto out = table_.take(id);
  co_return out ? std::move(*out) : ext_reply{ext_reply::kind::disconnected, {}, 0, "Extension disconnected", {}};
}

bool extension_hub::report_progress(const std::string& dispatch_id, double progress, std::optional<double> total,
                                    const std::string& message) {
  if (!table_.progress(dispatch_id, clock_type::now())) return false;
  auto it = waiters_.find(dispatch_id);
  if (it != waiters_.end() && it->second->on_progress) it->second->on_progress(progress, total, message);
  return true;
}

void extension_hub::wake(std::string_view id) {
  if (auto it = waiters_.find(id); it != waiters_.end()) it->second->wake.notify_all();
}

void extension_hub::shutdown() {
  stopping_ = true;
  connection_opened_.notify_all();
  tabs_synced_.notify_all();
  for (const auto& id : table_.fail_all(ext_reply::kind::shutdown, "Server shutting down")) wake(id);
  for (auto& [id, c] : connections_) c->close(codec::close_code::going_away, "Server shutting down");
}

}  // namespace opentabs::app
