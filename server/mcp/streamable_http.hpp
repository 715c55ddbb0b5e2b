// Streamable HTTP rules that need no socket: Accept / Content-Type checks, SSE event
// framing, and the HTTP error responses of the transport (status + id-less JSON-RPC
// error body), so every transport-level error is built in one place.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jsonrpc/jsonrpc.hpp"
#include "net/http_response.hpp"

namespace opentabs::mcp {

// MCP speaks JSON-RPC in the vocabulary of the jsonrpc module.
using jsonrpc::parsed;
using jsonrpc::rpc_error;
namespace rpc_code = jsonrpc::rpc_code;

// Whether an Accept header admits `media_type` ("application/json"), honouring
// wildcards ("*/*", "text/*") and q=0 exclusions.  An absent header admits nothing:
// the spec requires clients to list both types.
bool accepts(std::string_view accept_header, std::string_view media_type);
// Content-Type is application/json (parameters such as charset allowed).
bool is_json_content_type(std::string_view content_type);

// One SSE event carrying one JSON-RPC message: "event: message\ndata: <json>\n\n".
std::string sse_message_event(std::string_view json_message);
// An SSE comment that keeps idle proxies and clients from timing the stream out.
std::string_view sse_keepalive_comment();

inline constexpr std::string_view session_header = "Mcp-Session-Id";
inline constexpr std::string_view version_header = "MCP-Protocol-Version";

// HTTP error with body {"jsonrpc":"2.0","error":{code,message},"id":null}.
net::http_response transport_error(int status, const rpc_error& error);
net::http_response transport_error(int status, std::string message);  // code -32000
// A JSON body (application/json): a response, a batch of them, or an error naming its id.
net::http_response json_response(int status, std::string body);
// The same for a body already gzip-compressed (Content-Encoding: gzip), for a client whose
// Accept-Encoding allows it.
net::http_response gzip_json_response(int status, std::string gzip_body);

// The messages of a POST within a session: one message, or a batch where the session's
// protocol version allows batches (2025-03-26), of 1..max_batch elements.  `refusal` is the
// whole answer instead when the POST is refused (400: a batch where none are allowed, an
// empty or oversized batch, or a single message that is not valid JSON-RPC).
struct post_messages {
  std::vector<jsonrpc::classified> items;
  bool batch = false;
  std::optional<net::http_response> refusal;
};
post_messages read_post_messages(const json::value& body, std::string_view protocol_version, std::size_t max_batch);

// What a request to the endpoint (POST, GET, DELETE, of either protocol revision) is
// answered with: one response (for tools/list, the shared listing queued behind its head),
// or nothing more to send when the answer went out as it was produced (an SSE stream).  The
// endpoint writes it, in one place.
struct request_answer {
  std::optional<net::http_response> response;
  std::shared_ptr<const std::string> listing;
  std::string after;
};
inline request_answer answer_with(net::http_response r) { return request_answer{std::move(r), nullptr, {}}; }
inline request_answer already_answered() { return request_answer{}; }

}  // namespace opentabs::mcp
