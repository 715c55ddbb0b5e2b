// MCP resources on the wire, for both revisions: resources/list, resources/templates/list
// and resources/read answered from a tools::resource_service, resources/subscribe and
// resources/unsubscribe (2025-11-25 sessions) kept in a bounded per-client set, and the
// revision's resource-not-found error (-32002 in 2025-11-25, -32602 from 2026-07-28 on,
// SEP-2164; data.uri names the resource either way).  2026-07-28 results carry the caching
// hints (ttlMs, cacheScope) like tools/list.  The parsing and shapes are plain functions;
// answer_resource_request is the one coroutine, and it only awaits the service.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "json/json.hpp"
#include "jsonrpc/jsonrpc.hpp"
#include "mcp/resource_limits.hpp"
#include "net/asio.hpp"
#include "tools/resource_service.hpp"
#include "util/result.hpp"

namespace opentabs::mcp {

// Caching hints of the 2026-07-28 results: the listing changes when tabs open and close,
// the templates only with the binary, a read is a snapshot of something live.
inline constexpr long long resources_list_ttl_ms = 5'000;
inline constexpr long long resource_templates_ttl_ms = 3'600'000;
inline constexpr long long resource_read_ttl_ms = 0;

// The URIs one client (a 2025-11-25 session, or one subscriptions/listen stream) is
// subscribed to, bounded so a client cannot grow the server's memory without end.
class resource_subscriptions {
 public:
  static constexpr std::size_t max_per_client = max_resource_subscriptions;
  // too_large when the client already holds max_per_client others; subscribing twice to
  // the same URI is one subscription.
  status add(std::string uri);
  bool remove(std::string_view uri);
  bool has(std::string_view uri) const { return uris_.find(uri) != uris_.end(); }
  std::size_t size() const { return uris_.size(); }
  const std::set<std::string, std::less<>>& uris() const { return uris_; }

 private:
  std::set<std::string, std::less<>> uris_;
};

// params.uri of resources/read, subscribe and unsubscribe: a non-empty string of at most
// max_resource_uri_bytes.
jsonrpc::parsed<std::string> parse_resource_uri(const json::object& params);

json::object resources_list_result(const std::vector<tools::listed_resource>& resources);
json::object resource_templates_result(const std::vector<tools::listed_template>& templates);

// The revision's error for a URI that names no resource.
jsonrpc::rpc_error resource_not_found(std::string_view uri, bool modern);
// A failed read as a JSON-RPC error: not_found is resource_not_found, the rest code_for.
jsonrpc::rpc_error resource_read_error(const error& e, std::string_view uri, bool modern);

// Whether the revision answers `method` here (subscribe and unsubscribe are 2025-11-25
// only: 2026-07-28 subscribes through subscriptions/listen).
bool is_resource_method(std::string_view method, bool modern);

// resources/subscribe or unsubscribe in a session: the response.  A subscription to a URI
// the service cannot watch is resource_not_found; one beyond the bound is -32602 saying so.
std::string answer_subscription_request(const tools::resource_service* service, const jsonrpc::message& m,
                                        resource_subscriptions& subscriptions);

// resources/list, resources/templates/list or resources/read: the serialised response.
// `service` null: there are no resources (an empty listing; every read is not found).
net::awaitable<std::string> answer_resource_request(tools::resource_service* service, const jsonrpc::message& m,
                                                    tools::call_options options, bool modern);

}  // namespace opentabs::mcp
