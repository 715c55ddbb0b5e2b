// The tool list as MCP clients see it, serialised once per tool-set generation: the
// tools/list result of /mcp and the opentabs_list_tools listing of the gateway.  A
// tools_changed event invalidates it; the next request rebuilds it from the tool_service.
// This keeps tools/list of thousands of tools a string copy instead of a rebuild; for
// clients that accept gzip, a copy of the listing compressed once per generation.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "codec/gzip.hpp"
#include "json/json.hpp"
#include "tools/tool_service.hpp"
#include "util/string_keyed.hpp"

namespace opentabs::mcp {

class tool_catalog {
 public:
  explicit tool_catalog(const tools::tool_service& service) : service_(service) {}

  // The tool set or a permission changed.
  void invalidate() { built_ = false; }

  // {"tools":[{"name","description","inputSchema"},...]} in the service's order.
  const std::string& tools_list_result();
  // The whole uncompressed tools/list response for request `id`, as the response_json
  // bytes in three parts: `listing` is the cached result itself, shared rather than copied
  // into each response (megabytes for thousands of tools).
  struct split_response {
    std::string before;  // {"jsonrpc":"2.0","id":<id>,"result":
    std::shared_ptr<const std::string> listing;
    std::string after;  // }
  };
  split_response tools_list_response(const json::value& id);
  // The same as a 2026-07-28 cacheable result: resultType, ttlMs and cacheScope "private"
  // (the listing reflects this user's plugins and permissions) written before "tools".
  // Built on the first such request of a generation, then shared like the listing.
  split_response cacheable_tools_list_response(const json::value& id);
  // How long a 2026-07-28 client may reuse a listing without asking again; changes
  // sooner reach subscribed clients as notifications/tools/list_changed.
  static constexpr long long tools_list_ttl_ms = 60'000;
  // The whole tools/list response for request `id` as a gzip body:
  // {"result":<tools_list_result()>,"jsonrpc":"2.0","id":<id>}.  The listing is compressed
  // on the first call of a generation; later calls copy the compressed bytes.
  std::string tools_list_gzip(const json::value& id);
  // The plugin that owns a listed tool ("" when no tool is listed under that name).
  std::string_view plugin_of(std::string_view tool);
  // A listed tool's input schema; null when no tool is listed under that name.
  const json::object* input_schema_of(std::string_view tool);
  // opentabs_list_tools: a JSON array of {name, description, inputSchema, plugin}, for
  // every tool or one plugin ("browser" and "platform" included).  nullopt when the
  // filter names no plugin that has tools.
  std::optional<std::string> gateway_listing(std::optional<std::string_view> plugin);
  // Plugin names in list order, for "available plugins" hints.
  std::vector<std::string> plugin_names();

 private:
  void build();

  const tools::tool_service& service_;
  bool built_ = false;
  std::vector<tools::listed_tool> tools_;
  std::shared_ptr<const std::string> tools_list_;
  std::shared_ptr<const std::string> cacheable_tools_list_;  // null until asked for
  std::optional<codec::gzip_prefix> tools_list_gzip_;  // of {"result":<tools_list_>
  std::string gateway_all_;
  string_map<std::string> plugin_by_tool_;
  string_map<std::size_t> index_by_tool_;  // into tools_
};

}  // namespace opentabs::mcp
