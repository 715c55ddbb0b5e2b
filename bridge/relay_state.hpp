// The bridge's protocol bookkeeping, without I/O: what kind of message a stdin line is,
// the MCP session (id, negotiated protocol version, the client's initialize request kept
// for replay when the server forgets the session), what an HTTP status means for the
// relay, and the exact bytes written to stdout (one compact JSON text per line).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "json/json.hpp"
#include "util/result.hpp"

namespace opentabs::bridge {

enum class message_kind { request, notification, response, batch };

struct client_message {
  message_kind kind = message_kind::request;
  std::string text;    // the line as read: relayed as it is (the server parses it anyway)
  json::value value;   // the parsed message, kept only for initialize (replayed on re-initialize)
  json::value id;      // null unless a request (or response)
  std::string method;  // empty for responses and batches
  // Answered by the bridge itself (local_answers.hpp): still relayed for its effect on the
  // server (the session), but the server's answer or refusal is only logged.
  bool answered = false;
};

// Parses one stdin line and classifies it by shape (jsonrpc::classify_peer).  Error
// errc::parse_error carries the JSON error position; errc::invalid_request when it is JSON
// but not a JSON-RPC message.  The line is kept as `text`.
result<client_message> read_client_message(std::string line, std::size_t max_bytes);

// {"jsonrpc":"2.0","id":<id>,"error":{"code":<code>,"message":<message>}} as one line.
std::string error_line(const json::value& id, int code, std::string_view message);
// The error line answering a stdin line read_client_message refused (id null).
std::string stdin_error_line(const error& e);

// One server payload (an SSE data field or a JSON body) as one stdout line: as it came when
// it is one line already (the server's are compact), else re-serialised compactly, so
// stdout gets exactly one line per message.  Error when the payload is not JSON.
result<std::string> stdout_line(std::string_view payload);

// What a POST's HTTP status asks the relay to do.
enum class post_action {
  deliver,          // 200: relay the body (JSON or SSE)
  accepted,         // 202: nothing to relay (notifications, responses)
  reinitialize,     // 404 with a session: the server forgot it (restart) — initialize again
  reload_secret,    // 401: the secret changed (rotation) — re-read auth.json and retry
  fail,             // anything else: relay the server's JSON-RPC error or a proxy error
};
post_action classify_post_status(int status, bool sent_session_id);

class session_state {
 public:
  // Remembers the client's initialize request (its params are replayed on re-initialize).
  void remember_initialize(const json::object& request);
  bool can_reinitialize() const { return initialize_.has_value(); }

  // The replayed initialize, with a bridge-owned id so its answer is not relayed.
  json::object replay_initialize();
  static bool is_bridge_id(const json::value& id);

  // From a successful initialize answer: the negotiated protocol version.
  void on_initialize_result(const json::object& response);

  const std::string& session_id() const { return session_id_; }
  void set_session_id(std::string id) {
    session_id_ = std::move(id);
    ++generation_;
  }
  void clear_session() {
    session_id_.clear();
    ++generation_;
  }
  // Bumped on every session change; lets a failed request tell whether someone else
  // already re-initialized since it was sent.
  std::uint64_t generation() const { return generation_; }
  const std::string& protocol_version() const { return protocol_version_; }

 private:
  std::optional<json::object> initialize_;
  std::string session_id_;
  std::string protocol_version_;
  std::uint64_t generation_ = 0;
  std::uint64_t replays_ = 0;
};

}  // namespace opentabs::bridge
