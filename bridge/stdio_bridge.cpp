// The stdio bridge program (see stdio_bridge.hpp).  One io_context, one thread:
//   read_stdin   — splits lines; notifications/responses/initialize are relayed in order,
//                  requests run as tasks of the relay's task_group so several can be in
//                  flight;
//   emit         — queues a stdout line in a net::outbox (bounded in bytes: a client that
//                  stops reading holds up the relaying);
//   write_stdout — the only writer of stdout: what is queued when it wakes goes out in one
//                  write;
//   event_stream — the GET /mcp stream with 1 s → 30 s back-off, a task of the group;
//   signals      — SIGTERM/SIGINT end the bridge like EOF (without waiting for requests);
//   start_server — brings a server up (or finds one) while stdin is already read: the
//                  first exchange (server/discover, initialize) is answered from this binary
//                  (local_answers.hpp) and only what needs the server waits for it.
#include "bridge/stdio_bridge.hpp"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "bridge/bridge_log.hpp"
#include "bridge/contact_failure.hpp"
#include "bridge/local_answers.hpp"
#include "bridge/modern_relay.hpp"
#include "bridge/relay_state.hpp"
#include "bridge/server_launcher.hpp"
#include "bridge/server_proof.hpp"
#include "bridge/stdin_thread.hpp"
#include "config/auth_secret.hpp"
#include "jsonrpc/jsonrpc.hpp"
#include "net/asio.hpp"
#include "net/caught.hpp"
#include "net/event.hpp"
#include "net/http_client.hpp"
#include "net/net_failure.hpp"
#include "net/outbox.hpp"
#include "net/sse_parser.hpp"
#include "net/task_group.hpp"
#include "platform/async_stdio.hpp"
#include "platform/process_setup.hpp"
#include "platform/signals.hpp"
#include "util/env.hpp"
#include "util/strings.hpp"

namespace opentabs::bridge {

using net::as_value;
using net::awaitable;
using net::event;

namespace {

constexpr std::size_t kMaxErrorBodyBytes = 1024 * 1024;
constexpr std::size_t kMaxPendingStdoutBytes = 4 * 1024 * 1024;  // then emit waits for the client
constexpr std::size_t kMaxPendingStdoutLines = 64 * 1024;
// One write takes what is queued up to these (64 buffers: what Asio gives one writev).
constexpr std::size_t kMaxStdoutWriteBytes = 256 * 1024, kMaxStdoutWriteLines = 64;

// Writes every line to stdout with blocking writes.
std::error_code write_blocking(const std::vector<net::out_bytes>& lines) {
  for (const auto& line : lines)
    if (!platform::write_stdout(line.view())) return std::make_error_code(std::errc::broken_pipe);
  return {};
}

// At the end of the bridge, how long the event stream gets to notice the shutdown.
constexpr auto kStreamEndGrace = std::chrono::seconds(2);

// The POSTs' client: one request's whole exchange within request_timeout; connections kept
// alive between messages (a new connection per message cost more than the relaying).
net::http_client_options post_options(const bridge_options& options) {
  net::http_client_options opts;
  opts.connect_timeout = std::chrono::seconds(5);
  opts.idle_timeout = options.request_timeout;
  opts.total_timeout = options.request_timeout;
  opts.reuse_connections = true;
  return opts;
}

}  // namespace

bridge_options with_env_knobs(bridge_options options) {
  if (auto ms = env_milliseconds("OPENTABS_BRIDGE_START_TIMEOUT_MS", 1, 3'600'000)) options.server_start_timeout = *ms;
  if (auto ms = env_milliseconds("OPENTABS_BRIDGE_RETRY_MS", 1, 3'600'000)) {
    options.stream_retry_min = *ms;
    options.stream_retry_max = std::max(options.stream_retry_max, options.stream_retry_min);
  }
  return options;
}

class relay {
 public:
  relay(asio::io_context& io, const bridge_options& options)
      : io_(io),
        options_(options),
        log_(options.paths.stdio_bridge_log()),
        proven_(io.get_executor()),
        started_(io.get_executor()),
        stdout_queue_(io.get_executor(), kMaxPendingStdoutLines),
        writer_(io.get_executor()),
        tasks_(io.get_executor()),
        requests_done_(io.get_executor()),
        reinit_done_(io.get_executor()),
        stream_kick_(io.get_executor()),
        posts_(io.get_executor(), "127.0.0.1", options.port, post_options(options)),
        signals_(io),
        stdin_(io),
        stdout_(io) {}

  awaitable<void> run();
  int exit_code() const { return exit_code_; }

 private:
  struct post_result {
    int status = 0;
    std::string content_type;
    std::string session_id;
    std::vector<std::string> lines;  // captured messages (deliver=false); relayed ones are not kept
    std::string error_body;          // body of a non-200 answer (bounded)
  };

  awaitable<void> read_stdin();
  awaitable<void> start_server();
  awaitable<void> write_stdout();
  awaitable<std::error_code> write_lines(const std::vector<net::out_bytes>& lines);
  awaitable<void> event_stream();
  awaitable<void> handle_line(std::string line);
  awaitable<void> relay_request(client_message msg);
  awaitable<void> relay_message(client_message msg);
  // relay_message's steps: after a failed POST / an answer, whether to try again.
  awaitable<bool> after_post_error(const client_message& msg, const error& e, int attempt, std::uint64_t generation);
  awaitable<bool> after_post_answer(const client_message& msg, post_result& r, bool with_session, std::uint64_t generation,
                                    bool& reproved);
  awaitable<void> start_session(post_result& r);
  awaitable<void> relay_refusal(const client_message& msg, const post_result& r);
  // Logs why `msg` was not relayed; a request gets an error answer.
  awaitable<void> fail(const client_message& msg, const std::string& text);
  awaitable<void> relay_modern(client_message msg, header_pairs headers);
  // `via`: the client to send with (null: posts_, the shared kept-alive one).
  awaitable<result<post_result>> post(const std::string& body, bool with_session, bool deliver, const header_pairs* extra_headers = nullptr,
                                      net::http_client* via = nullptr);
  awaitable<bool> reinitialize(std::uint64_t failed_generation);
  awaitable<void> delete_session();
  awaitable<void> emit(std::string line);
  void stdout_failed(const std::error_code& ec);
  awaitable<std::size_t> read_some(char* buf, std::size_t n, bool& eof);
  bool reload_secret();
  awaitable<status> ensure_proven();
  void begin_shutdown(bool cancel_requests);
  net::http_client_request mcp_request(std::string method, bool with_session) const;

  asio::io_context& io_;
  bridge_options options_;
  bridge_log log_;
  session_state state_;
  std::string secret_;
  // The peer-proof credential of the server now on the port (bridge/server_proof.hpp); empty
  // until that server has proved it knows the secret.  The secret itself is never sent.
  std::string authorization_;
  bool proving_ = false;
  event proven_;
  bool starting_ = true;  // start_server has not finished: POSTs wait for it
  event started_;
  net::outbox stdout_queue_;  // whole lines, in order, for write_stdout
  net::task_group writer_;    // write_stdout, awaited last so what is queued gets written
  net::task_group tasks_;     // event_stream and the requests relayed concurrently
  int in_flight_ = 0;         // requests among tasks_
  event requests_done_;
  bool reinit_running_ = false;
  event reinit_done_;
  event stream_kick_;
  bool shutting_down_ = false;
  bool stdout_broken_ = false;
  int exit_code_ = 0;
  net::http_client posts_;  // every POST, over kept-alive connections
  net::http_client* stream_client_ = nullptr;
  asio::signal_set signals_;
  platform::async_stream stdin_;
  platform::async_stream stdout_;
  int open_listens_ = 0;          // 2026-07-28 subscriptions/listen requests relayed now
  // 2026-07-28 tools/calls relayed now, by jsonrpc::id_key of their id.  Each has a client
  // (connection) of its own, so a notifications/cancelled on stdin closes just that call's
  // stream, which is how a client cancels a 2026-07-28 request over HTTP.
  struct modern_call {
    net::http_client* client = nullptr;
    bool cancelled = false;
  };
  std::unordered_map<std::string, modern_call*> modern_calls_;
  bool stdin_blocking_ = false;   // stdin is a regular file or /dev/null (epoll refuses those)
  bool stdout_blocking_ = false;
};

net::http_client_request relay::mcp_request(std::string method, bool with_session) const {
  net::http_client_request req;
  req.method = std::move(method);
  req.target = "/mcp";
  req.headers.reserve(5);
  req.headers.emplace_back("Authorization", authorization_);
  if (req.method == "POST") {
    req.headers.emplace_back("Accept", "application/json, text/event-stream");
    req.headers.emplace_back("Content-Type", "application/json");
  } else if (req.method == "GET") {
    req.headers.emplace_back("Accept", "text/event-stream");
  }
  if (with_session && !state_.session_id().empty()) req.headers.emplace_back("Mcp-Session-Id", state_.session_id());
  if (with_session && !state_.protocol_version().empty())
    req.headers.emplace_back("MCP-Protocol-Version", state_.protocol_version());
  return req;
}

bool relay::reload_secret() {
  auto s = config::load_secret(options_.paths.auth_json());
  if (!s || *s == secret_) return false;
  secret_ = *s;
  log_.write("secret changed on disk; using the new one");
  return true;
}

// One proof at a time; the requests that arrive meanwhile use its outcome.  A listener that
// cannot prove the secret may be an old server after a rotation, so auth.json is re-read once.
awaitable<status> relay::ensure_proven() {
  while (proving_) co_await proven_.wait();
  if (!authorization_.empty()) co_return ok();
  proving_ = true;
  auto proof = co_await prove_server(options_.port, secret_);
  if (!proof && proof.err().is(contact_failure::not_opentabs) && reload_secret()) proof = co_await prove_server(options_.port, secret_);
  proving_ = false;
  proven_.notify_all();
  if (!proof) {
    log_.write(proof.err().message);
    co_return proof.err();
  }
  authorization_ = *proof;
  co_return ok();
}

awaitable<void> relay::emit(std::string line) {
  // Back-pressure: a client that stops reading stdout holds up the relaying.
  co_await stdout_queue_.wait_unwritten_at_most(kMaxPendingStdoutBytes);
  line += '\n';
  co_await stdout_queue_.push_wait(std::move(line));  // refused once stdout failed: dropped
}

awaitable<void> relay::write_stdout() {
  std::vector<net::out_bytes> batch;
  bool open = true;
  while (open) {
    auto first = co_await stdout_queue_.next();
    if (first.empty()) break;  // finished or closed
    batch.push_back(std::move(first));
    open = stdout_queue_.take_ready(batch, kMaxStdoutWriteBytes, kMaxStdoutWriteLines);
    std::size_t bytes = 0;
    for (const auto& line : batch) bytes += line.size();
    auto ec = co_await write_lines(batch);
    batch.clear();
    if (ec) {
      stdout_failed(ec);
      break;
    }
    stdout_queue_.written(bytes);
  }
}

awaitable<std::error_code> relay::write_lines(const std::vector<net::out_bytes>& lines) {
  if (!stdout_blocking_) {
    std::vector<asio::const_buffer> buffers;
    buffers.reserve(lines.size());
    for (const auto& line : lines) buffers.push_back(asio::buffer(line.view()));
    auto [ec, n] = co_await asio::async_write(stdout_, buffers, as_value);
    co_return ec;
  }
  // A regular file or /dev/null: epoll refuses those, and a write to them does not block long.
  co_return write_blocking(lines);
}

void relay::stdout_failed(const std::error_code& ec) {
  if (stdout_broken_) return;
  stdout_broken_ = true;
  stdout_queue_.close();  // what is queued is dropped; emit no longer waits
  log_.write("stdout closed (" + ec.message() + "); ending");
  begin_shutdown(true);
}

awaitable<std::size_t> relay::read_some(char* buf, std::size_t n, bool& eof) {
  if (stdin_blocking_) {
    const std::string chunk = co_await read_stdin_on_thread(n);
    if (chunk.empty()) eof = true;
    std::copy(chunk.begin(), chunk.end(), buf);
    co_return chunk.size();
  }
  auto [ec, got] = co_await stdin_.async_read_some(asio::buffer(buf, n), as_value);
  if (ec) eof = true;
  co_return got;
}

awaitable<void> relay::read_stdin() {
  line_splitter splitter(options_.max_line_bytes);
  std::vector<char> buf(64 * 1024);
  bool eof = false;
  while (!eof && !shutting_down_) {
    std::size_t n = co_await read_some(buf.data(), buf.size(), eof);
    line_splitter::output out;
    if (n > 0) splitter.feed(std::string_view(buf.data(), n), out);
    if (eof) splitter.finish(out);
    for (std::size_t i = 0; i < out.oversized; ++i) {
      log_.write("dropped a stdin message larger than " + std::to_string(options_.max_line_bytes) + " bytes");
      co_await emit(error_line(nullptr, jsonrpc::rpc_code::invalid_request,
                               "Bridge error: message larger than " + std::to_string(options_.max_line_bytes) + " bytes"));
    }
    for (auto& line : out.lines) co_await handle_line(std::move(line));
  }
}

awaitable<void> relay::handle_line(std::string line) {
  auto msg = read_client_message(std::move(line), options_.max_line_bytes);
  if (!msg) {
    log_.write("invalid message on stdin: " + msg.err().message);
    co_await emit(stdin_error_line(msg.err()));
    co_return;
  }
  if (msg->kind == message_kind::request && msg->method == "initialize") {
    auto local = answer_initialize(msg->value.as_object());
    co_await emit(std::move(local.line));
    if (!local.accepted) co_return;
    msg->answered = true;
    state_.remember_initialize(msg->value.as_object());
    co_await relay_message(std::move(*msg));  // in order: later lines need the session id
    co_return;
  }
  if (msg->kind == message_kind::request && modern_request_headers(msg->text))
    if (auto discovered = discover_answer(msg->text)) {
      co_await emit(std::move(*discovered));
      co_return;
    }
  if (msg->kind == message_kind::notification && msg->method == "notifications/cancelled")
    if (auto id = cancelled_request_id(msg->text))
      if (auto it = modern_calls_.find(jsonrpc::id_key(*id)); it != modern_calls_.end()) {
        it->second->cancelled = true;
        it->second->client->cancel();
        co_return;
      }
  if (msg->kind != message_kind::request) {
    co_await relay_message(std::move(*msg));  // notifications and responses keep their order
    co_return;
  }
  // Requests run concurrently; the count lets EOF wait for them.
  ++in_flight_;
  tasks_.spawn(relay_request(std::move(*msg)), "a relayed request");
}

awaitable<void> relay::relay_request(client_message msg) {
  if (auto e = co_await net::caught(relay_message(std::move(msg)))) log_.write("request relay failed: " + net::failure_text(e));
  --in_flight_;
  requests_done_.notify_all();  // EOF waits for a count, not only for zero
}

awaitable<result<relay::post_result>> relay::post(const std::string& body, bool with_session, bool deliver, const header_pairs* extra_headers,
                                                  net::http_client* via) {
  post_result out;
  net::sse_parser sse(options_.max_line_bytes);
  bool sse_body = false;
  std::string json_body;
  while (starting_) co_await started_.wait();
  if (auto proven = co_await ensure_proven(); !proven) co_return proven.err();
  auto req = mcp_request("POST", with_session);
  if (extra_headers) req.headers.insert(req.headers.end(), extra_headers->begin(), extra_headers->end());
  req.body = body;
  auto head = co_await (via ? *via : posts_).stream(
      std::move(req),
      [&](const net::response_head& h) {
        out.status = h.status;
        out.content_type = to_lower(h.header("Content-Type"));
        out.session_id = std::string(h.header("Mcp-Session-Id"));
        sse_body = h.status == 200 && out.content_type.find("text/event-stream") != std::string::npos;
        return true;
      },
      [&](std::string piece) -> awaitable<bool> {
        if (!sse_body) {
          std::string& dst = out.status == 200 ? json_body : out.error_body;
          if (out.status != 200 && dst.size() + piece.size() > kMaxErrorBodyBytes) co_return false;
          dst += piece;
          co_return true;
        }
        std::vector<net::sse_event> events;
        if (auto st = sse.feed(piece, events); !st) {
          log_.write("bad event stream from the server: " + st.err().message);
          co_return false;
        }
        for (auto& e : events) {
          auto line = stdout_line(e.data);
          if (!line) {
            log_.write(line.err().message);
            continue;
          }
          // Relayed lines go straight out; captured ones (deliver=false) are kept for the caller.
          if (deliver) co_await emit(std::move(*line));
          else out.lines.push_back(std::move(*line));
        }
        co_return true;
      });
  if (!head) co_return head.err();
  if (out.status == 200 && !sse_body && !json_body.empty()) {
    auto line = stdout_line(json_body);
    if (!line) co_return make_error(net::net_failure::bad_response, line.err().message);
    if (deliver) co_await emit(std::move(*line));
    else out.lines.push_back(std::move(*line));
  }
  co_return out;
}

// A 2026-07-28 request: its own POST without a session (the server checks its _meta and
// headers); the answer or the server's JSON-RPC error goes to stdout as it came.  A server
// that is not up is started once, like for any request.
awaitable<void> relay::relay_modern(client_message msg, header_pairs headers) {
  struct listen_count {
    int& open;
    int counted;
    listen_count(int& n, bool listen) : open(n), counted(listen ? 1 : 0) { open += counted; }
    ~listen_count() { open -= counted; }
  } listening{open_listens_, msg.method == "subscriptions/listen"};
  std::optional<net::http_client> own;
  modern_call call;
  const std::string key = jsonrpc::id_key(msg.id);
  if (msg.method == "tools/call" && !modern_calls_.count(key)) {
    auto opts = post_options(options_);
    opts.reuse_connections = false;
    own.emplace(io_.get_executor(), "127.0.0.1", options_.port, opts);
    call.client = &*own;
    modern_calls_.emplace(key, &call);
  }
  struct forget_call {
    std::unordered_map<std::string, modern_call*>& calls;
    const std::string& key;
    const modern_call* call;
    ~forget_call() {
      if (auto it = calls.find(key); it != calls.end() && it->second == call) calls.erase(it);
    }
  } forget{modern_calls_, key, &call};
  net::http_client* via = own ? &*own : nullptr;
  auto r = co_await post(msg.text, false, true, &headers, via);
  if (!r && r.err().is(net::net_failure::connect_failed) && !shutting_down_) {
    // A server that comes up here is a new process: prove it before the retry, as
    // relay_message does.
    authorization_.clear();
    launcher_options lo{options_.port, options_.auto_start, options_.server_start_timeout};
    if (auto up = co_await ensure_server(lo, log_); up) r = co_await post(msg.text, false, true, &headers, via);
  }
  if (r && r->status == 401) {
    // Another server process on the port does not know our proof: prove it again (re-reading
    // a rotated secret) once.
    authorization_.clear();
    reload_secret();
    r = co_await post(msg.text, false, true, &headers, via);
  }
  // A cancelled request gets no answer (MCP cancellation).
  if (call.cancelled) co_return;
  std::string failure;
  if (!r) {
    failure = r.err().message;
  } else if (r->status != 200 && r->status != 202) {
    auto v = json::parse_object(r->error_body);
    if (v && json::find(*v, "error")) {
      (*v)["id"] = msg.id;
      co_await emit(json::dump(*v));
    } else {
      failure = "HTTP " + std::to_string(r->status);
    }
  }
  if (!failure.empty()) {
    log_.write("request " + msg.method + " failed: " + failure);
    co_await emit(error_line(msg.id, jsonrpc::rpc_code::internal_error, "Bridge proxy error: " + failure));
  }
}

awaitable<void> relay::relay_message(client_message msg) {
  if (msg.kind == message_kind::request)
    if (auto modern = modern_request_headers(msg.text)) {
      co_await relay_modern(std::move(msg), std::move(*modern));
      co_return;
    }
  const bool is_initialize = msg.kind == message_kind::request && msg.method == "initialize";
  // The client's initialize was answered here, but no server took it (none came up in time):
  // open the server session before the first message that needs one, as after a restart.
  if (!is_initialize && state_.session_id().empty() && state_.can_reinitialize()) {
    const bool opened = co_await reinitialize(state_.generation());
    if (opened && msg.kind == message_kind::notification && msg.method == "notifications/initialized") co_return;
  }
  const std::string body = std::move(msg.text);
  // Loops leave with break, never co_return (GCC 12 mis-compiles some co_returns and
  // negated co_awaits inside coroutine loops); `finished` says whether an answer was given.
  bool finished = false;
  bool reproved = false;
  for (int attempt = 0; attempt < 3 && !finished; ++attempt) {
    const bool with_session = !is_initialize && !state_.session_id().empty();
    const std::uint64_t generation = state_.generation();
    // initialize answers are captured first: the session id and version come from them.
    auto r = co_await post(body, with_session, /*deliver=*/!is_initialize);
    bool retry = false;
    if (!r) retry = co_await after_post_error(msg, r.err(), attempt, generation);
    else retry = co_await after_post_answer(msg, *r, with_session, generation, reproved);
    finished = !retry;
  }
  if (!finished) co_await fail(msg, "giving up after repeated session failures");
}

awaitable<void> relay::fail(const client_message& msg, const std::string& text) {
  const bool is_request = msg.kind == message_kind::request && !msg.answered;
  log_.write((is_request ? "request " + msg.method + " failed: " : "message " + msg.method + " not delivered: ") + text);
  if (is_request) co_await emit(error_line(msg.id, jsonrpc::rpc_code::internal_error, "Bridge proxy error: " + text));
}

awaitable<bool> relay::after_post_error(const client_message& msg, const error& e, int attempt, std::uint64_t generation) {
  if (!e.is(net::net_failure::connect_failed) || attempt != 0 || shutting_down_) {
    co_await fail(msg, e.message);
    co_return false;
  }
  // The server is gone (stopped or restarting): bring one up, prove it, then continue the
  // session on it.
  authorization_.clear();
  launcher_options lo{options_.port, options_.auto_start, options_.server_start_timeout};
  auto up = co_await ensure_server(lo, log_);
  if (!up) {
    co_await fail(msg, up.err().message);
    co_return false;
  }
  const bool is_initialize = msg.kind == message_kind::request && msg.method == "initialize";
  if (!is_initialize && state_.can_reinitialize()) co_await reinitialize(generation);
  co_return true;
}

awaitable<bool> relay::after_post_answer(const client_message& msg, post_result& r, bool with_session, std::uint64_t generation,
                                         bool& reproved) {
  switch (classify_post_status(r.status, with_session)) {
    case post_action::deliver:
      if (msg.kind == message_kind::request && msg.method == "initialize") co_await start_session(r);
      co_return false;
    case post_action::accepted:
      co_return false;
    case post_action::reinitialize: {
      log_.write("the server does not know our session (restarted?); re-initializing");
      bool renewed = false;
      if (state_.can_reinitialize()) renewed = co_await reinitialize(generation);
      if (!renewed) co_await fail(msg, "the server lost the session and re-initializing failed");
      co_return renewed;
    }
    case post_action::reload_secret:
      // A new server process on the port does not know our credential: prove it again
      // (re-reading a rotated secret) once.
      authorization_.clear();
      reload_secret();
      if (!reproved) {
        reproved = true;
        co_return true;
      }
      co_await fail(msg, "the server rejected the secret in " + options_.paths.auth_json().string() +
                             " (is it running with another OPENTABS_CONFIG_DIR?)");
      co_return false;
    case post_action::fail:
      co_await relay_refusal(msg, r);
      co_return false;
  }
  co_return false;
}

// The client already has its initialize answer (local_answers.hpp); the server's answer
// gives the session id and the version the session's requests carry.
awaitable<void> relay::start_session(post_result& r) {
  if (!r.session_id.empty()) state_.set_session_id(r.session_id);
  for (const auto& line : r.lines)
    if (auto v = json::parse_object(line); v && json::find(*v, "result")) state_.on_initialize_result(*v);
  if (!state_.session_id().empty()) log_.write("session started (protocol " + state_.protocol_version() + ")");
  stream_kick_.notify_all();
  co_return;
}

namespace {

// notifications/message (warning) carrying the server's refusal of a client's response.
std::string answer_not_used_warning(const json::object& refusal) {
  const auto* error = json::get_object(refusal, "error");
  const auto* text = error ? json::get_string(*error, "message") : nullptr;
  json::object params{{"level", "warning"}, {"logger", "opentabs"}, {"data", json::str(text ? std::string(*text) : std::string("answer not used"))}};
  return jsonrpc::notification_json("notifications/message", params);
}

}  // namespace

// The server's own JSON-RPC error (400 bad request, 406, ...) is the best answer.
awaitable<void> relay::relay_refusal(const client_message& msg, const post_result& r) {
  auto v = json::parse_object(r.error_body);
  if (v && json::find(*v, "error")) {
    if (msg.kind == message_kind::request && !msg.answered) {
      (*v)["id"] = msg.id;
      co_await emit(json::dump(*v));
    } else if (msg.kind == message_kind::response) {
      // The client's answer to a question the server had already settled (409: a permission
      // question decided in the side panel first): a response cannot be answered, so the
      // server's words reach the client as a warning log message.
      log_.write("server did not use the client's answer: HTTP " + std::to_string(r.status));
      co_await emit(answer_not_used_warning(*v));
    } else {
      log_.write("server refused " + msg.method + ": HTTP " + std::to_string(r.status));
    }
    co_return;
  }
  std::string excerpt = r.error_body.substr(0, 200);
  for (auto& ch : excerpt)
    if (ch == '\n' || ch == '\r') ch = ' ';
  co_await fail(msg, "HTTP " + std::to_string(r.status) + (excerpt.empty() ? "" : ": " + excerpt));
}

awaitable<bool> relay::reinitialize(std::uint64_t failed_generation) {
  if (state_.generation() != failed_generation) co_return !state_.session_id().empty();  // already done
  while (reinit_running_) co_await reinit_done_.wait();
  if (state_.generation() != failed_generation) co_return !state_.session_id().empty();
  reinit_running_ = true;
  bool ok_now = false;
  auto init = state_.replay_initialize();
  auto r = co_await post(json::dump(init), false, /*deliver=*/false);
  if (r && r->status == 200 && !r->session_id.empty()) {
    state_.set_session_id(r->session_id);
    for (const auto& line : r->lines)
      if (auto v = json::parse_object(line); v && json::find(*v, "result")) state_.on_initialize_result(*v);
    auto n = co_await post(jsonrpc::notification_json("notifications/initialized"), true, false);
    ok_now = n && (n->status == 202 || n->status == 200);
    log_.write(ok_now ? "re-initialized: new session on the server" : "re-initialize: notifications/initialized failed");
    if (stream_client_) stream_client_->cancel();  // reopen the event stream for the new session
    stream_kick_.notify_all();
  } else {
    log_.write("re-initialize failed: " + (r ? "HTTP " + std::to_string(r->status) : r.err().message));
  }
  reinit_running_ = false;
  reinit_done_.notify_all();
  co_return ok_now;
}

awaitable<void> relay::event_stream() {
  auto backoff = options_.stream_retry_min;
  while (!shutting_down_) {
    if (state_.session_id().empty()) {
      co_await stream_kick_.wait();
      continue;
    }
    const std::uint64_t generation = state_.generation();
    auto proven = co_await ensure_proven();
    net::http_client_options opts;
    opts.connect_timeout = std::chrono::seconds(5);
    opts.idle_timeout = std::chrono::hours(1);  // quiet streams are normal; reconnect hourly
    opts.total_timeout = std::chrono::milliseconds(0);
    net::http_client client(io_.get_executor(), "127.0.0.1", options_.port, opts);
    stream_client_ = &client;
    int status = 0;
    net::sse_parser sse(options_.max_line_bytes);
    auto req = mcp_request("GET", true);
    // Without a proven server there is nothing to open; the back-off below retries.
    result<net::response_head> r = make_error(contact_failure::not_opentabs, "no opentabs server proved itself on the port");
    if (proven) r = co_await client.stream(
        req,
        [&](const net::response_head& h) {
          status = h.status;
          if (status == 200) log_.write("event stream open");
          return status == 200;
        },
        [&](std::string piece) -> awaitable<bool> {
          std::vector<net::sse_event> events;
          if (!sse.feed(piece, events)) co_return false;
          for (auto& e : events) {
            auto line = stdout_line(e.data);
            if (line) co_await emit(*line);
          }
          co_return true;
        });
    stream_client_ = nullptr;
    if (shutting_down_) break;
    if (status == 200) backoff = options_.stream_retry_min;  // it worked; the server closed it
    if (status == 401) authorization_.clear();               // another server process: prove it again
    if (status == 404) {
      bool renewed = co_await reinitialize(generation);  // awaited outside the condition: GCC 12
      if (renewed) continue;
    } else if (status == 405) {
      log_.write("the server offers no event stream; server notifications arrive with responses only");
      co_await stream_kick_.wait();
      continue;
    }
    if (state_.generation() != generation) continue;  // new session: connect right away
    log_.write("event stream " + (r ? std::string("ended") + (status ? " (HTTP " + std::to_string(status) + ")" : "")
                                    : "failed: " + r.err().message) +
               "; reconnecting in " + std::to_string(backoff.count()) + " ms");
    // Sleep the back-off, but wake early when the session changes or we shut down.
    co_await stream_kick_.wait_until(net::steady_clock::now() + backoff);
    backoff = std::min(backoff * 2, options_.stream_retry_max);
  }
}

awaitable<void> relay::delete_session() {
  if (state_.session_id().empty()) co_return;
  // The DELETE carries our proof, so it goes only to a server that proved itself.
  auto proven = co_await ensure_proven();
  if (!proven) co_return;
  net::http_client_options opts;
  opts.connect_timeout = std::chrono::seconds(2);
  opts.idle_timeout = std::chrono::seconds(5);
  opts.total_timeout = std::chrono::seconds(5);
  net::http_client client(io_.get_executor(), "127.0.0.1", options_.port, opts);
  auto req = mcp_request("DELETE", true);
  auto r = co_await client.send(req);
  log_.write(r ? "session closed (HTTP " + std::to_string(r->status()) + ")" : "closing the session failed: " + r.err().message);
}

awaitable<void> relay::start_server() {
  launcher_options lo{options_.port, options_.auto_start, options_.server_start_timeout};
  auto up = co_await ensure_server(lo, log_);
  if (!up) log_.write(up.err().message + " (requests will be answered with errors until it runs)");
  starting_ = false;
  started_.notify_all();
}

void relay::begin_shutdown(bool cancel_requests) {
  if (!shutting_down_) {
    shutting_down_ = true;
    std::error_code ignored;
    if (!stdin_blocking_) stdin_.cancel(ignored);
  }
  if (cancel_requests) {
    posts_.cancel();
    for (auto& [key, call] : modern_calls_) call->client->cancel();
  }
  if (stream_client_) stream_client_->cancel();
  stream_kick_.notify_all();
}

awaitable<void> relay::run() {
  platform::ignore_broken_pipes();
  // Copies no child inherits: the server this bridge may start must not hold the client's pipes.
  stdin_blocking_ = !platform::attach_standard_stream(stdin_, platform::standard_stream::input);
  stdout_blocking_ = !platform::attach_standard_stream(stdout_, platform::standard_stream::output);
  for (const auto& sig : platform::stop_signals()) signals_.add(sig.number);
  signals_.async_wait([this](std::error_code ec, int sig) {
    if (ec) return;
    const auto* known = platform::find_server_signal(sig);
    log_.write("received " + (known ? std::string(known->name) : "signal " + std::to_string(sig)) + "; ending");
    begin_shutdown(true);
  });
  writer_.spawn(write_stdout(), "the stdout writer");
  auto secret = config::ensure_secret(options_.paths.auth_json());
  if (!secret) {
    log_.write("cannot read or create the secret: " + secret.err().message);
    exit_code_ = 1;
  } else {
    secret_ = secret->secret;
    log_.write("bridge started for http://127.0.0.1:" + std::to_string(options_.port) + "/mcp");
    tasks_.spawn(start_server(), "the server start");
    tasks_.spawn(event_stream(), "the event stream");
    co_await read_stdin();
    log_.write(shutting_down_ ? "shutting down" : "stdin closed; finishing in-flight requests");
    // Open subscriptions/listen streams never finish on their own: once every other request
    // is done, they are closed (the client that opened them has gone).
    while (in_flight_ > open_listens_) co_await requests_done_.wait();
    if (open_listens_ > 0) posts_.cancel();
    while (in_flight_ > 0) co_await requests_done_.wait();
    shutting_down_ = true;
    begin_shutdown(false);
    co_await delete_session();
  }
  // The event stream ends at its next wake-up (begin_shutdown cancelled its client).
  shutting_down_ = true;
  tasks_.close();
  stream_kick_.notify_all();
  co_await tasks_.wait(net::steady_clock::now() + kStreamEndGrace);
  // End of output: what is queued is written.
  stdout_queue_.finish();
  co_await writer_.wait(net::steady_clock::time_point::max());
  std::error_code ignored;
  signals_.cancel(ignored);
  log_.write("bridge stopped");
}

int run_stdio_bridge(const bridge_options& options) {
  asio::io_context io{1};
  relay r(io, options);
  asio::co_spawn(io, r.run(), [&](std::exception_ptr e) {
    if (e) bridge_log(options.paths.stdio_bridge_log()).write("bridge failed: " + net::failure_text(e));
    io.stop();
  });
  io.run();
  return r.exit_code();
}

}  // namespace opentabs::bridge
