// JSON-RPC 2.0 as MCP uses it, sans-I/O: classifying one incoming message (request,
// notification or response), the error objects the server answers with — every code and
// text lives here — and the serialisation of responses and notifications.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "json/json.hpp"

namespace opentabs::mcp {

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
}  // namespace rpc_code

// One JSON-RPC error object.
struct rpc_error {
  int code = rpc_code::internal_error;
  std::string message;
  json::value data;  // null: absent

  json::object to_json() const;

  static rpc_error parse_error(std::string_view detail);
  static rpc_error invalid_request(std::string_view detail);
  static rpc_error method_not_found(std::string_view method);
  // `field` is the offending field's path ("params.name"); `problem` says what is wrong.
  static rpc_error invalid_params(std::string_view field, std::string_view problem);
  static rpc_error invalid_params_text(std::string message);
  static rpc_error internal(std::string_view detail);
  static rpc_error transport(std::string message);
};

enum class message_kind { request, notification, response };

// A classified message.  `params` is empty when the message had none.
struct message {
  message_kind kind = message_kind::request;
  json::value id;  // requests and responses: a string or an integer
  std::string method;
  json::object params;
};

// The outcome of classifying one message.  On failure `id` holds the request id when it
// could be read (so the error response names the request), else null.
struct classified {
  std::optional<message> msg;
  rpc_error error;
  json::value id;
  explicit operator bool() const { return msg.has_value(); }
};

// Classifies one element: a whole POST body or one element of a batch.
classified classify(const json::value& v);

// A stable map key for a request id (strings and integers never collide).
std::string id_key(const json::value& id);

// Serialisation; every output is one compact line.
std::string response_json(const json::value& id, std::string_view result_json);
std::string response_json(const json::value& id, const json::object& result);
std::string error_json(const json::value& id, const rpc_error& error);
std::string notification_json(std::string_view method, const json::object& params);
std::string notification_json(std::string_view method);

// Typed parameter parsing with errors that name the offending field.  Each returns the
// error when the field is present with a wrong type (or missing while required).
template <class T>
struct parsed {
  std::optional<T> value;
  rpc_error error;
  explicit operator bool() const { return value.has_value(); }
};

}  // namespace opentabs::mcp
