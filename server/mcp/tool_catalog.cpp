#include "mcp/tool_catalog.hpp"

#include "jsonrpc/jsonrpc.hpp"
#include "mcp/modern_request.hpp"

namespace opentabs::mcp {

namespace {

// Conformance (and some clients) need a non-empty description on every tool.
std::string_view description_of(const tools::listed_tool& t) { return t.description.empty() ? std::string_view(t.name) : std::string_view(t.description); }

void append_tool(std::string& out, const tools::listed_tool& t, bool with_plugin) {
  json::object o{{"name", json::str(t.name)}, {"description", json::str(description_of(t))}, {"inputSchema", t.input_schema}};
  if (with_plugin) o["plugin"] = json::str(t.plugin);
  out += json::dump(o);
}

}  // namespace

void tool_catalog::build() {
  tools_ = service_.list_tools();
  tools_list_gzip_.reset();
  cacheable_tools_list_.reset();
  plugin_by_tool_.clear();
  index_by_tool_.clear();
  // A new string each generation: responses still queued hold the one they were given.
  std::string listing = R"({"tools":[)";
  gateway_all_ = "[";
  bool first = true;
  for (const auto& t : tools_) {
    if (!first) {
      listing += ',';
      gateway_all_ += ',';
    }
    first = false;
    append_tool(listing, t, false);
    append_tool(gateway_all_, t, true);
    plugin_by_tool_.emplace(t.name, t.plugin);
    index_by_tool_.emplace(t.name, static_cast<std::size_t>(&t - tools_.data()));
  }
  listing += "]}";
  tools_list_ = std::make_shared<const std::string>(std::move(listing));
  gateway_all_ += "]";
  built_ = true;
}

const std::string& tool_catalog::tools_list_result() {
  if (!built_) build();
  return *tools_list_;
}

tool_catalog::split_response tool_catalog::tools_list_response(const json::value& id) {
  if (!built_) build();
  split_response out;
  jsonrpc::append_response_head(out.before, id);
  out.listing = tools_list_;
  out.after = "}";
  return out;
}

tool_catalog::split_response tool_catalog::cacheable_tools_list_response(const json::value& id) {
  if (!built_) build();
  if (!cacheable_tools_list_)
    cacheable_tools_list_ = std::make_shared<const std::string>(with_leading_fields(*tools_list_, cacheable_fields(tools_list_ttl_ms, "private")));
  split_response out;
  jsonrpc::append_response_head(out.before, id);
  out.listing = cacheable_tools_list_;
  out.after = "}";
  return out;
}

std::string tool_catalog::tools_list_gzip(const json::value& id) {
  if (!built_) build();
  if (!tools_list_gzip_) {
    std::string head = R"({"result":)";
    head.reserve(head.size() + tools_list_->size());
    head += *tools_list_;
    tools_list_gzip_.emplace(head);
  }
  return tools_list_gzip_->finish(R"(,"jsonrpc":"2.0","id":)" + json::dump(id) + "}");
}

std::string_view tool_catalog::plugin_of(std::string_view tool) {
  if (!built_) build();
  auto it = plugin_by_tool_.find(tool);
  return it == plugin_by_tool_.end() ? std::string_view() : std::string_view(it->second);
}

const json::object* tool_catalog::input_schema_of(std::string_view tool) {
  if (!built_) build();
  auto it = index_by_tool_.find(tool);
  return it == index_by_tool_.end() ? nullptr : &tools_[it->second].input_schema;
}

std::optional<std::string> tool_catalog::gateway_listing(std::optional<std::string_view> plugin) {
  if (!built_) build();
  if (!plugin) return gateway_all_;
  std::string out = "[";
  bool any = false;
  for (const auto& t : tools_) {
    if (t.plugin != *plugin) continue;
    if (any) out += ',';
    any = true;
    append_tool(out, t, true);
  }
  if (!any) return std::nullopt;
  out += ']';
  return out;
}

std::vector<std::string> tool_catalog::plugin_names() {
  if (!built_) build();
  std::vector<std::string> names;
  for (const auto& t : tools_)
    if (names.empty() || names.back() != t.plugin) {
      bool seen = false;
      for (const auto& n : names) seen = seen || n == t.plugin;
      if (!seen) names.push_back(t.plugin);
    }
  return names;
}

}  // namespace opentabs::mcp
