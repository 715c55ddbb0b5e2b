// MCP resources on the wire (see resource_requests.hpp).
#include "mcp/resource_requests.hpp"

#include "mcp/modern_request.hpp"

namespace opentabs::mcp {

using jsonrpc::rpc_error;

status resource_subscriptions::add(std::string uri) {
  if (has(uri)) return ok();
  if (uris_.size() >= max_per_client)
    return make_error(errc::too_large, "this client holds " + std::to_string(uris_.size()) +
                                           " resource subscriptions (the limit is " + std::to_string(max_per_client) +
                                           "); unsubscribe from one first");
  uris_.insert(std::move(uri));
  return ok();
}

bool resource_subscriptions::remove(std::string_view uri) {
  auto it = uris_.find(uri);
  if (it == uris_.end()) return false;
  uris_.erase(it);
  return true;
}

jsonrpc::parsed<std::string> parse_resource_uri(const json::object& params) {
  jsonrpc::parsed<std::string> out;
  const auto* uri = json::find(params, "uri");
  if (!uri || !uri->is_string() || uri->get_string().empty())
    out.error = rpc_error::invalid_params("params.uri", uri ? "must be a non-empty string" : "is required");
  else if (uri->get_string().size() > max_resource_uri_bytes)
    out.error = rpc_error::invalid_params("params.uri", "is longer than " + std::to_string(max_resource_uri_bytes) + " bytes");
  else
    out.value = std::string(uri->get_string());
  return out;
}

namespace {

// One entry of a listing: its identifying field (uri, uriTemplate), name, and the optional rest.
json::object listing_entry(std::string_view id_key, const std::string& id, const std::string& name, const std::string& title,
                           const std::string& description, const std::string& mime_type) {
  json::object o{{id_key, json::str(id)}, {"name", json::str(name)}};
  if (!title.empty()) o["title"] = json::str(title);
  if (!description.empty()) o["description"] = json::str(description);
  if (!mime_type.empty()) o["mimeType"] = json::str(mime_type);
  return o;
}

}  // namespace

json::object resources_list_result(const std::vector<tools::listed_resource>& resources) {
  json::array out;
  for (const auto& r : resources) out.push_back(listing_entry("uri", r.uri, r.name, r.title, r.description, r.mime_type));
  return json::object{{"resources", std::move(out)}};
}

json::object resource_templates_result(const std::vector<tools::listed_template>& templates) {
  json::array out;
  for (const auto& t : templates) out.push_back(listing_entry("uriTemplate", t.uri_template, t.name, t.title, t.description, t.mime_type));
  return json::object{{"resourceTemplates", std::move(out)}};
}

rpc_error resource_not_found(std::string_view uri, bool modern) {
  return {modern ? jsonrpc::rpc_code::invalid_params : jsonrpc::rpc_code::resource_not_found, "Resource not found",
          json::object{{"uri", json::str(uri)}}};
}

rpc_error resource_read_error(const error& e, std::string_view uri, bool modern) {
  if (e.is(errc::not_found)) {
    auto err = resource_not_found(uri, modern);
    if (!e.message.empty()) err.message = "Resource not found: " + e.message;
    return err;
  }
  auto err = rpc_error::from(e);
  err.data = json::object{{"uri", json::str(uri)}};
  return err;
}

bool is_resource_method(std::string_view method, bool modern) {
  if (method == "resources/list" || method == "resources/templates/list" || method == "resources/read") return true;
  return !modern && (method == "resources/subscribe" || method == "resources/unsubscribe");
}

std::string answer_subscription_request(const tools::resource_service* service, const jsonrpc::message& m,
                                        resource_subscriptions& subscriptions) {
  auto uri = parse_resource_uri(m.params());
  if (!uri) return jsonrpc::error_json(m.id, uri.error);
  if (m.method == "resources/unsubscribe") {
    subscriptions.remove(*uri.value);
    return jsonrpc::response_json(m.id, "{}");
  }
  if (!service || !service->can_subscribe(*uri.value)) return jsonrpc::error_json(m.id, resource_not_found(*uri.value, false));
  if (auto added = subscriptions.add(*uri.value); !added) {
    auto err = rpc_error::invalid_params_text(added.err().message);
    err.data = json::object{{"uri", json::str(*uri.value)}, {"limit", resource_subscriptions::max_per_client}};
    return jsonrpc::error_json(m.id, err);
  }
  return jsonrpc::response_json(m.id, "{}");
}

namespace {

// The result as the revision wants it: 2026-07-28 starts with resultType and the hints.
std::string result_response(const json::value& id, const json::object& result, bool modern, long long ttl_ms, std::string_view scope) {
  if (!modern) return jsonrpc::response_json(id, result);
  return jsonrpc::response_json(id, with_leading_fields(json::dump(result), cacheable_fields(ttl_ms, scope)));
}

}  // namespace

net::awaitable<std::string> answer_resource_request(tools::resource_service* service, const jsonrpc::message& m,
                                                    tools::call_options options, bool modern) {
  // What a tab's listing and contents show depends on who asks: never shared by intermediaries.
  constexpr std::string_view scope = "private";
  if (m.method == "resources/templates/list") {
    auto templates = service ? service->list_templates() : std::vector<tools::listed_template>{};
    co_return result_response(m.id, resource_templates_result(templates), modern, resource_templates_ttl_ms, "public");
  }
  if (m.method == "resources/list") {
    std::vector<tools::listed_resource> listed;
    if (service) listed = co_await service->list_resources(std::move(options));
    co_return result_response(m.id, resources_list_result(listed), modern, resources_list_ttl_ms, scope);
  }
  auto uri = parse_resource_uri(m.params());
  if (!uri) co_return jsonrpc::error_json(m.id, uri.error);
  if (!service) co_return jsonrpc::error_json(m.id, resource_not_found(*uri.value, modern));
  auto contents = co_await service->read_resource(*uri.value, std::move(options));
  if (!contents) co_return jsonrpc::error_json(m.id, resource_read_error(contents.err(), *uri.value, modern));
  // MUST NOT answer an empty contents array (SEP-2164): a resource always has its one entry.
  if (contents->empty()) co_return jsonrpc::error_json(m.id, resource_not_found(*uri.value, modern));
  co_return result_response(m.id, json::object{{"contents", std::move(*contents)}}, modern, resource_read_ttl_ms, scope);
}

}  // namespace opentabs::mcp
