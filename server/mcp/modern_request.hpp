// MCP revision 2026-07-28 (the "modern" era: no initialize, no sessions), sans-I/O: which
// era a request speaks, the per-request _meta every modern request carries (protocol
// version, client capabilities, client identity, log level), the Streamable HTTP header
// rules (MCP-Protocol-Version, Mcp-Method and Mcp-Name must be present and agree with the
// body) and the revision's error objects.  A refusal carries the HTTP status the transport
// answers with; on stdio the status is ignored.
#pragma once

#include <cstddef>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/json.hpp"
#include "jsonrpc/jsonrpc.hpp"
#include "mcp/log_level.hpp"

namespace opentabs::mcp {

inline constexpr std::string_view modern_protocol_version = "2026-07-28";

inline constexpr std::string_view method_header = "Mcp-Method";
inline constexpr std::string_view name_header = "Mcp-Name";

namespace meta_key {
inline constexpr std::string_view protocol_version = "io.modelcontextprotocol/protocolVersion";
inline constexpr std::string_view client_capabilities = "io.modelcontextprotocol/clientCapabilities";
inline constexpr std::string_view client_info = "io.modelcontextprotocol/clientInfo";
inline constexpr std::string_view log_level = "io.modelcontextprotocol/logLevel";
inline constexpr std::string_view server_info = "io.modelcontextprotocol/serverInfo";
inline constexpr std::string_view subscription_id = "io.modelcontextprotocol/subscriptionId";
}  // namespace meta_key

// Bound on a request's _meta as serialised JSON: it is copied into every request's
// context, and nothing legitimate comes near it.
inline constexpr std::size_t max_meta_bytes = 16 * 1024;

bool is_modern_version(std::string_view v);
// Every revision served, newest first: the modern one, then the initialize-era ones
// (served through sessions).  server/discover's supportedVersions and the
// UnsupportedProtocolVersionError's data.supported.
json::array served_versions();

// Whether a POST speaks the modern era: the body is one request whose params._meta carries
// a protocol version, or (outside a session) its MCP-Protocol-Version header is present
// and names no initialize-era revision.  Everything else (initialize, session traffic, old
// clients without the header) keeps the 2025 rules; a modern request that still carries
// an Mcp-Session-Id has it ignored.
bool speaks_modern(std::string_view version_header, const json::value& body, bool has_session);

// A notification on a subscriptions/listen stream: `params` with
// _meta[io.modelcontextprotocol/subscriptionId] = the listen request's id.
std::string listen_notification(std::string_view method, const json::value& subscription_id, json::object params);

// subscriptions/listen's filter: which notifications the client asked for and the server
// honours (toolsListChanged, resourcesListChanged, and resourceSubscriptions: at most
// max_resource_subscriptions URIs, each at most max_resource_uri_bytes; resource_limits.hpp).
struct listen_request {
  bool tools_list_changed = false;
  bool resources_list_changed = false;
  std::vector<std::string> resource_subscriptions;
};
jsonrpc::parsed<listen_request> parse_listen(const json::object& params);
// The acknowledgement that opens the stream: the honoured subset of the filter.
std::string listen_acknowledgement(const json::value& subscription_id, const listen_request& honoured);

// The request headers a modern POST must carry; nullopt: absent.  On stdio there are none
// and `http` is false, which skips the header rules.
struct modern_headers {
  bool http = true;
  std::optional<std::string_view> protocol_version;
  std::optional<std::string_view> method;
  std::optional<std::string_view> name;
};

// Who sent one modern request and what it can do, from its _meta.
struct client_context {
  std::string protocol_version;
  json::object capabilities;
  std::string client_name;  // "" when the request carries no clientInfo
  // peer_proof::caller_identity of the request's credential (set by the endpoint): the part of
  // `identity()` a client cannot choose.
  std::string caller;
  std::optional<mcp::log_level> min_log_level;  // none: the request gets no notifications/message

  // What per-client state (tasks, listen streams) is keyed by: the credential's identity and
  // the chosen name together, so another client calling itself the same name with its own
  // credential shares nothing with this one.
  std::string identity() const { return caller + "\n" + client_name; }

  bool declares(std::string_view capability) const;
  bool declares_extension(std::string_view extension_id) const;
};

// A modern request refused before its method runs.
struct refusal {
  int http_status = 400;
  jsonrpc::rpc_error error;
};

struct admission {
  std::optional<client_context> client;
  refusal refused;
  explicit operator bool() const { return client.has_value(); }
};

// Checks one modern request (a request, not a notification): Mcp-Method against the body's
// method, params._meta and its required fields (-32602), MCP-Protocol-Version against the
// _meta version and Mcp-Name against params.name (or, when sent, params.taskId of the tasks
// extension's methods) (-32020 HeaderMismatch), then the version
// itself (-32022 UnsupportedProtocolVersionError).  Every refusal is HTTP 400.
// `message_bytes`: the size of the message as received; one no larger than max_meta_bytes
// cannot hold a larger _meta, so its _meta is not measured.
admission admit_modern(const jsonrpc::message& m, const modern_headers& headers,
                       std::size_t message_bytes = std::numeric_limits<std::size_t>::max());

// The revision's errors.
jsonrpc::rpc_error unsupported_version_error(std::string_view requested);
jsonrpc::rpc_error header_mismatch_error(std::string detail);
// data.requiredCapabilities is a ClientCapabilities object: {"<capability>": {}}.
jsonrpc::rpc_error missing_capability_error(std::string_view capability, std::string_view why);
// data.requiredCapabilities names the extension: {"extensions": {"<id>": {}}}.
jsonrpc::rpc_error missing_extension_error(std::string_view extension_id, std::string_view why);
// An unknown (or removed: initialize, ping, logging/setLevel) method: HTTP 404, -32601.
refusal method_not_found(std::string_view method);

// A tool parameter its input schema marks with "x-mcp-header": the chain of property names
// from the schema root (only through "properties") and the header's name suffix; the
// client sends the argument's value as Mcp-Param-{header} too.
struct mirrored_param {
  std::vector<std::string> path;
  std::string header;
};
std::vector<mirrored_param> mirrored_params(const json::object& input_schema);

// Every mirrored parameter present (and not null) in `arguments` must arrive in its header
// with the same value (decoded; integers compared as numbers, booleans as true/false); a
// parameter absent from the arguments expects no header.  `header` looks a request header
// up by name (nullopt: absent).  The refusal is -32020 HeaderMismatch, HTTP 400.
std::optional<refusal> check_mirrored_params(const std::vector<mirrored_param>& params, const json::object& arguments,
                                             const std::function<std::optional<std::string_view>(std::string_view)>& header);

// A header value as the spec compares it: optional whitespace trimmed, and the Base64
// sentinel form "=?base64?...?=" decoded; nullopt when the sentinel does not hold padded
// standard Base64.
std::optional<std::string> decode_header_value(std::string_view raw);

// `object_json` (a serialised JSON object) with `fields` ("\"a\":1,\"b\":2") written first:
// how a cached result gains resultType and the caching hints without being rebuilt.
std::string with_leading_fields(std::string_view object_json, std::string_view fields);

// The fields every cacheable modern result starts with.
std::string cacheable_fields(long long ttl_ms, std::string_view scope);
inline constexpr std::string_view complete_field = R"("resultType":"complete")";

}  // namespace opentabs::mcp
