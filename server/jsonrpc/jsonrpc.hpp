// JSON-RPC 2.0, sans-I/O, for every side of the server that speaks it: the MCP endpoint
// (strict rules: classify), the extension channel and the stdio bridge (a peer's envelope:
// classify_peer), the error objects and codes (every code lives here; code_for maps an
// errc category to its code once), and the serialisation of requests, responses,
// notifications and errors.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/json.hpp"
#include "util/result.hpp"

namespace opentabs::jsonrpc {

namespace rpc_code {
inline constexpr int parse_error = -32700;
inline constexpr int invalid_request = -32600;
inline constexpr int method_not_found = -32601;
inline constexpr int invalid_params = -32602;
inline constexpr int internal_error = -32603;
// Implementation-defined transport errors (legacy-era space -32000..-32019; never the
// 2026-07-28 codes -32020..-32099, so dual-era clients fall back to initialize).
inline constexpr int transport_error = -32000;
inline constexpr int session_not_found = -32001;
// MCP 2025-11-25's resource-not-found (resources/read of an unknown URI); 2026-07-28 uses
// invalid_params instead (SEP-2164).
inline constexpr int resource_not_found = -32002;
// MCP 2026-07-28's own codes (the spec's reserved range -32020..-32099).
inline constexpr int header_mismatch = -32020;
inline constexpr int missing_required_client_capability = -32021;
inline constexpr int unsupported_protocol_version = -32022;
}  // namespace rpc_code

// The JSON-RPC code of an error category: the one mapping from errc for JSON-RPC peers.
// (not_found is -32602: what was named in the params does not exist.)
int code_for(errc e);

// One JSON-RPC error object.
struct rpc_error {
  int code = rpc_code::internal_error;
  std::string message;
  json::value data;  // null: absent

  json::object to_json() const;

  // An expected failure as a JSON-RPC error: code_for(e.kind), the message as it is.
  static rpc_error from(const error& e);
  static rpc_error parse_error(std::string_view detail);
  static rpc_error invalid_request(std::string_view detail);
  static rpc_error method_not_found(std::string_view method);
  // `field` is the offending field's path ("params.name"); `problem` says what is wrong.
  static rpc_error invalid_params(std::string_view field, std::string_view problem);
  static rpc_error invalid_params_text(std::string message);
  static rpc_error internal(std::string_view detail);
  static rpc_error transport(std::string message);
};

// ---- the strict rules of a JSON-RPC server (MCP) ----------------------------------------

enum class message_kind { request, notification, response };

// A classified message.  params() is empty when the message had none.
struct message {
  message_kind kind = message_kind::request;
  json::value id;  // requests and responses: a string or an integer
  std::string method;
  // The params object inside the value that was classified, not a copy of it (a tools/call's
  // arguments are copied once, by the request that owns them): valid while that value
  // lives.  Null: the message had none.
  const json::object* params_view = nullptr;

  const json::object& params() const;
};

// The outcome of classifying one message.  On failure `id` holds the request id when it
// could be read (so the error response names the request), else null.
struct classified {
  std::optional<message> msg;
  rpc_error error;
  json::value id;
  explicit operator bool() const { return msg.has_value(); }
};

// Classifies one element: a whole POST body or one element of a batch.  Checks "jsonrpc",
// the id's type and that params is an object.  The message's params() points into `v`.
classified classify(const json::value& v);

// ---- a peer's envelope (extension channel, stdio bridge) --------------------------------

// What a message is by its shape alone; the far end (or the handler) validates the rest.
enum class envelope_kind { request, notification, response, invalid };

struct peer_rules {
  // The extension protocol (spec §3) treats "id": null as no id; JSON-RPC 2.0 itself reads
  // it as a request id.
  bool null_id_is_absent = false;
};

// Views into the classified object (valid while it lives).
struct envelope {
  envelope_kind kind = envelope_kind::invalid;
  const json::value* id = nullptr;      // requests and responses
  std::string_view method;              // requests and notifications
  const json::value* params = nullptr;  // requests and notifications: null when absent
  const json::value* result = nullptr;  // responses: null when absent
  const json::object* error = nullptr;  // responses: the error object when there is one

  bool is_call() const { return kind == envelope_kind::request || kind == envelope_kind::notification; }
  // params as an object: absent → an empty object; present but not an object → null.
  const json::object* params_object() const;
};

// A string method makes a request (with an id) or a notification; otherwise an id with
// "result" or "error" makes a response; anything else is invalid.
envelope classify_peer(const json::object& o, peer_rules rules = {});

// ---- serialisation ----------------------------------------------------------------------

// A stable map key for a request id (strings and integers never collide).
std::string id_key(const json::value& id);

// Every output is one compact line.
std::string response_json(const json::value& id, std::string_view result_json);
// {"jsonrpc":"2.0","id":<id>,"result": appended to `out`, for a result written as text
// right after it (then one closing '}').
void append_response_head(std::string& out, const json::value& id);
std::string response_json(const json::value& id, const json::object& result);
std::string error_json(const json::value& id, const rpc_error& error);
std::string notification_json(std::string_view method, const json::object& params);
std::string notification_json(std::string_view method);
// A batch response: the responses joined as one JSON array.
std::string batch_json(const std::vector<std::string>& responses);

// The same messages as objects (for senders that queue json::object).
json::object request_object(const json::value& id, std::string_view method, json::object params);
json::object notification_object(std::string_view method, json::object params);
json::object response_object(const json::value& id, json::value result);
json::object error_object(const json::value& id, const rpc_error& error);

// Typed parameter parsing with errors that name the offending field.  Each returns the
// error when the field is present with a wrong type (or missing while required).
template <class T>
struct parsed {
  std::optional<T> value;
  rpc_error error;
  explicit operator bool() const { return value.has_value(); }
};

}  // namespace opentabs::jsonrpc
