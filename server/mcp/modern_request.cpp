#include "mcp/modern_request.hpp"

#include <set>

#include "mcp/resource_limits.hpp"

#include "mcp/protocol_version.hpp"
#include "util/base64.hpp"
#include "util/strings.hpp"

namespace opentabs::mcp {

using jsonrpc::rpc_error;

namespace {

refusal refuse(rpc_error e, int status = 400) { return refusal{status, std::move(e)}; }

admission refused(rpc_error e) {
  admission a;
  a.refused = refuse(std::move(e));
  return a;
}

std::string shown(std::string_view v) { return quote_for_error(v, 64); }

const json::object* meta_of(const json::object& params) {
  const auto* meta = json::find(params, "_meta");
  return meta && meta->is_object() ? &meta->get_object() : nullptr;
}

// Mcp-Name's source in the body: params.name (tools/call, prompts/get) or params.uri
// (resources/read); nullopt for methods that name nothing.
std::optional<std::string_view> named_target(const jsonrpc::message& m) {
  if (m.method != "tools/call" && m.method != "prompts/get" && m.method != "resources/read") return std::nullopt;
  const auto* v = json::get_string(m.params(), m.method == "resources/read" ? "uri" : "name");
  return v ? std::optional<std::string_view>(std::string_view(*v)) : std::nullopt;
}

// Mcp-Name's source for the tasks extension's methods: params.taskId.  Checked when the
// header is there (routing intermediaries need it; the server does not).
std::optional<std::string_view> task_target(const jsonrpc::message& m) {
  if (m.method != "tasks/get" && m.method != "tasks/update" && m.method != "tasks/cancel") return std::nullopt;
  const auto* v = json::get_string(m.params(), "taskId");
  return v ? std::optional<std::string_view>(std::string_view(*v)) : std::nullopt;
}

}  // namespace

bool is_modern_version(std::string_view v) { return v == modern_protocol_version; }

json::array served_versions() {
  json::array out{json::str(modern_protocol_version)};
  for (auto v : supported_protocol_versions) out.push_back(json::str(v));
  return out;
}

bool speaks_modern(std::string_view version_header, const json::value& body, bool has_session) {
  if (body.is_object()) {
    const auto* params = json::get_object(body.get_object(), "params");
    const auto* meta = params ? meta_of(*params) : nullptr;
    if (meta && json::find(*meta, meta_key::protocol_version)) return true;
  }
  auto h = trim(version_header);
  return !has_session && !h.empty() && !is_supported_version(h);
}

std::string listen_notification(std::string_view method, const json::value& subscription_id, json::object params) {
  params["_meta"] = json::object{{meta_key::subscription_id, subscription_id}};
  return jsonrpc::notification_json(method, params);
}

namespace {

// One boolean of the listen filter: absent or null leaves `out` false.
bool read_filter_flag(const json::object& filter, std::string_view key, bool& out, rpc_error& error) {
  const auto* v = json::find(filter, key);
  if (!v || v->is_null()) return true;
  if (!v->is_bool()) {
    error = rpc_error::invalid_params("params.notifications." + std::string(key), "must be a boolean");
    return false;
  }
  out = v->get_bool();
  return true;
}

// resourceSubscriptions: bounded like a session's resources/subscribe.
bool read_resource_subscriptions(const json::object& filter, std::vector<std::string>& out, rpc_error& error) {
  const auto* v = json::find(filter, "resourceSubscriptions");
  if (!v || v->is_null()) return true;
  const std::string field = "params.notifications.resourceSubscriptions";
  if (!v->is_array()) {
    error = rpc_error::invalid_params(field, "must be an array of resource URIs");
    return false;
  }
  std::set<std::string, std::less<>> unique;
  for (const auto& uri : v->get_array()) {
    if (!uri.is_string() || uri.get_string().empty() || uri.get_string().size() > max_resource_uri_bytes) {
      error = rpc_error::invalid_params(field, "must hold non-empty URIs of at most " + std::to_string(max_resource_uri_bytes) + " bytes");
      return false;
    }
    unique.emplace(uri.get_string());
  }
  if (unique.size() > max_resource_subscriptions) {
    error = rpc_error::invalid_params(field, "names " + std::to_string(unique.size()) + " resources; one stream watches at most " +
                                                 std::to_string(max_resource_subscriptions));
    return false;
  }
  out.assign(unique.begin(), unique.end());
  return true;
}

}  // namespace

jsonrpc::parsed<listen_request> parse_listen(const json::object& params) {
  jsonrpc::parsed<listen_request> out;
  const auto* filter = json::find(params, "notifications");
  if (!filter || !filter->is_object()) {
    out.error = rpc_error::invalid_params("params.notifications", filter ? "must be an object" : "is required (for example {\"toolsListChanged\": true})");
    return out;
  }
  listen_request r;
  const auto& f = filter->get_object();
  if (!read_filter_flag(f, "toolsListChanged", r.tools_list_changed, out.error) ||
      !read_filter_flag(f, "resourcesListChanged", r.resources_list_changed, out.error) ||
      !read_resource_subscriptions(f, r.resource_subscriptions, out.error))
    return out;
  out.value = std::move(r);
  return out;
}

std::string listen_acknowledgement(const json::value& subscription_id, const listen_request& honoured) {
  json::object filter;
  if (honoured.tools_list_changed) filter["toolsListChanged"] = true;
  if (honoured.resources_list_changed) filter["resourcesListChanged"] = true;
  if (!honoured.resource_subscriptions.empty()) {
    json::array uris;
    for (const auto& uri : honoured.resource_subscriptions) uris.push_back(json::str(uri));
    filter["resourceSubscriptions"] = std::move(uris);
  }
  return listen_notification("notifications/subscriptions/acknowledged", subscription_id, json::object{{"notifications", std::move(filter)}});
}

bool client_context::declares(std::string_view capability) const { return json::find(capabilities, capability) != nullptr; }

bool client_context::declares_extension(std::string_view extension_id) const {
  const auto* ext = json::get_object(capabilities, "extensions");
  return ext && json::find(*ext, extension_id);
}

std::optional<std::string> decode_header_value(std::string_view raw) {
  auto v = trim(raw);
  constexpr std::string_view open = "=?base64?", close = "?=";
  if (v.size() >= open.size() + close.size() && starts_with(v, open) && v.substr(v.size() - close.size()) == close) {
    auto payload = v.substr(open.size(), v.size() - open.size() - close.size());
    if (payload.size() % 4 != 0) return std::nullopt;  // the revision requires padded Base64
    return decode_base64(payload);
  }
  return std::string(v);
}

namespace {

void collect_mirrored(const json::object& schema, std::vector<std::string>& path, std::vector<mirrored_param>& out) {
  const auto* props = json::get_object(schema, "properties");
  if (!props) return;
  for (const auto& [key, sub] : *props) {
    if (!sub.is_object()) continue;
    path.emplace_back(key);
    if (const auto* h = json::get_string(sub.get_object(), "x-mcp-header"); h && !h->empty()) out.push_back({path, std::string(*h)});
    if (path.size() < 8) collect_mirrored(sub.get_object(), path, out);
    path.pop_back();
  }
}

const json::value* at_path(const json::object& arguments, const std::vector<std::string>& path) {
  const json::object* o = &arguments;
  const json::value* v = nullptr;
  for (const auto& key : path) {
    if (!o) return nullptr;
    v = json::find(*o, key);
    if (!v) return nullptr;
    o = v->if_object();
  }
  return v;
}

// The header text a body value must equal; nullopt for types the revision does not mirror.
std::optional<std::string> header_text(const json::value& v) {
  if (v.is_string()) return std::string(v.get_string());
  if (v.is_bool()) return std::string(v.get_bool() ? "true" : "false");
  if (v.is_int64()) return std::to_string(v.get_int64());
  if (v.is_uint64()) return std::to_string(v.get_uint64());
  if (v.is_double() && v.get_double() == static_cast<double>(static_cast<long long>(v.get_double())))
    return std::to_string(static_cast<long long>(v.get_double()));
  return std::nullopt;
}

bool same_value(const json::value& body, std::string_view header) {
  auto expected = header_text(body);
  if (!expected) return false;
  if (*expected == header) return true;
  // Integers compare as numbers ("42.0" and 42).
  if (body.is_number()) {
    try {
      std::size_t used = 0;
      double h = std::stod(std::string(header), &used);
      return used == header.size() && h == body.to_number<double>();
    } catch (const std::exception&) {
      return false;
    }
  }
  return false;
}

bool header_safe(std::string_view v) {
  for (unsigned char c : v)
    if ((c < 0x20 && c != '\t') || c > 0x7e) return false;
  return true;
}

}  // namespace

std::vector<mirrored_param> mirrored_params(const json::object& input_schema) {
  std::vector<mirrored_param> out;
  std::vector<std::string> path;
  collect_mirrored(input_schema, path, out);
  return out;
}

std::optional<refusal> check_mirrored_params(const std::vector<mirrored_param>& params, const json::object& arguments,
                                             const std::function<std::optional<std::string_view>(std::string_view)>& header) {
  for (const auto& p : params) {
    const std::string name = "Mcp-Param-" + p.header;
    const auto* value = at_path(arguments, p.path);
    if (!value || value->is_null()) continue;
    auto raw = header(name);
    if (!raw) return refuse(header_mismatch_error("Header mismatch: the " + name + " header is required (the arguments carry that parameter)"));
    if (!header_safe(*raw)) return refuse(header_mismatch_error("Header mismatch: " + name + " contains characters not allowed in a header value"));
    auto decoded = decode_header_value(*raw);
    if (!decoded) return refuse(header_mismatch_error("Header mismatch: " + name + " is not valid =?base64?...?= encoding (padded standard Base64)"));
    if (!same_value(*value, *decoded))
      return refuse(header_mismatch_error("Header mismatch: " + name + " header value " + shown(*decoded) + " does not match the argument's value"));
  }
  return std::nullopt;
}

namespace {

std::string meta_field(std::string_view key) { return "params._meta[\"" + std::string(key) + "\"]"; }

// Mcp-Method must repeat the body's method.
std::optional<rpc_error> method_header_mismatch(const jsonrpc::message& m, const modern_headers& headers) {
  if (!headers.method)
    return header_mismatch_error("Header mismatch: the Mcp-Method header is required (it must repeat the body's method " + shown(m.method) + ")");
  if (trim(*headers.method) != m.method)
    return header_mismatch_error("Header mismatch: Mcp-Method header value " + shown(trim(*headers.method)) + " does not match body method " +
                                 shown(m.method));
  return std::nullopt;
}

// The optional parts of _meta: the client's name and the log level it asks for.
std::optional<rpc_error> read_optional_meta(const json::object& meta, client_context& client) {
  if (const auto* info = json::find(meta, meta_key::client_info); info && !info->is_null()) {
    if (!info->is_object()) return rpc_error::invalid_params(meta_field(meta_key::client_info), "must be an object");
    if (const auto* name = json::get_string(info->get_object(), "name")) client.client_name = std::string(std::string_view(*name).substr(0, 128));
  }
  if (const auto* level = json::find(meta, meta_key::log_level); level && !level->is_null()) {
    auto parsed = level->is_string() ? parse_log_level(level->get_string()) : std::nullopt;
    if (!parsed) return rpc_error::invalid_params(meta_field(meta_key::log_level), "must be one of " + std::string(log_levels_text()));
    client.min_log_level = parsed;
  }
  return std::nullopt;
}

// params._meta: what every request of the revision carries about its client.
std::optional<rpc_error> read_meta(const jsonrpc::message& m, std::size_t message_bytes, client_context& client) {
  const auto* meta_value = json::find(m.params(), "_meta");
  if (!meta_value)
    return rpc_error::invalid_params("params._meta", "is required in MCP " + std::string(modern_protocol_version) + " (it carries " +
                                                         std::string(meta_key::protocol_version) + " and " +
                                                         std::string(meta_key::client_capabilities) + ")");
  if (!meta_value->is_object()) return rpc_error::invalid_params("params._meta", "must be an object, got " + std::string(json::type_name(*meta_value)));
  const auto& meta = meta_value->get_object();
  if (message_bytes > max_meta_bytes && json::dump(meta).size() > max_meta_bytes)
    return rpc_error::invalid_params("params._meta", "is larger than " + std::to_string(max_meta_bytes) + " bytes");

  const auto* version = json::find(meta, meta_key::protocol_version);
  if (!version || !version->is_string())
    return rpc_error::invalid_params(meta_field(meta_key::protocol_version), version ? "must be a string" : "is required");
  client.protocol_version = std::string(version->get_string());
  const auto* caps = json::find(meta, meta_key::client_capabilities);
  if (!caps || !caps->is_object())
    return rpc_error::invalid_params(meta_field(meta_key::client_capabilities),
                                     caps ? "must be an object" : "is required (an empty object declares no capabilities)");
  client.capabilities = caps->get_object();
  return read_optional_meta(meta, client);
}

// MCP-Protocol-Version must repeat _meta's version, and Mcp-Name the task or the named target.
std::optional<rpc_error> echo_header_mismatch(const jsonrpc::message& m, const modern_headers& headers, const client_context& client) {
  if (!headers.protocol_version)
    return header_mismatch_error("Header mismatch: the MCP-Protocol-Version header is required (it must repeat _meta's " +
                                 std::string(meta_key::protocol_version) + ")");
  if (trim(*headers.protocol_version) != client.protocol_version)
    return header_mismatch_error("Header mismatch: MCP-Protocol-Version header value " + shown(trim(*headers.protocol_version)) +
                                 " does not match _meta protocol version " + shown(client.protocol_version));
  if (auto task = task_target(m); task && headers.name) {
    auto name = decode_header_value(*headers.name);
    if (!name || *name != *task)
      return header_mismatch_error("Header mismatch: Mcp-Name header value " + shown(name ? *name : *headers.name) +
                                   " does not match params.taskId " + shown(*task));
  }
  if (auto target = named_target(m)) {
    if (!headers.name)
      return header_mismatch_error("Header mismatch: the Mcp-Name header is required for " + m.method + " (it must repeat " + shown(*target) + ")");
    auto name = decode_header_value(*headers.name);
    if (!name) return header_mismatch_error("Header mismatch: Mcp-Name header value is not valid =?base64?...?= encoding");
    if (*name != *target)
      return header_mismatch_error("Header mismatch: Mcp-Name header value " + shown(*name) + " does not match body value " + shown(*target));
  }
  return std::nullopt;
}

}  // namespace

admission admit_modern(const jsonrpc::message& m, const modern_headers& headers, std::size_t message_bytes) {
  if (headers.http)
    if (auto mismatch = method_header_mismatch(m, headers)) return refused(std::move(*mismatch));
  client_context client;
  if (auto bad = read_meta(m, message_bytes, client)) return refused(std::move(*bad));
  if (headers.http)
    if (auto mismatch = echo_header_mismatch(m, headers, client)) return refused(std::move(*mismatch));
  if (!is_modern_version(client.protocol_version)) return refused(unsupported_version_error(client.protocol_version));
  admission ok;
  ok.client = std::move(client);
  return ok;
}

rpc_error unsupported_version_error(std::string_view requested) {
  std::string message = "Unsupported protocol version " + shown(requested) + ": this server speaks " + std::string(modern_protocol_version) +
                        " per request";
  if (is_supported_version(requested)) message += ", and " + std::string(requested) + " only in a session opened with initialize";
  return rpc_error{jsonrpc::rpc_code::unsupported_protocol_version, std::move(message),
                   json::object{{"supported", served_versions()}, {"requested", json::str(requested.substr(0, 64))}}};
}

rpc_error header_mismatch_error(std::string detail) { return rpc_error{jsonrpc::rpc_code::header_mismatch, std::move(detail), nullptr}; }

rpc_error missing_capability_error(std::string_view capability, std::string_view why) {
  return rpc_error{jsonrpc::rpc_code::missing_required_client_capability,
                   "Missing required client capability \"" + std::string(capability) + "\": " + std::string(why),
                   json::object{{"requiredCapabilities", json::object{{capability, json::object{}}}}}};
}

rpc_error missing_extension_error(std::string_view extension_id, std::string_view why) {
  return rpc_error{jsonrpc::rpc_code::missing_required_client_capability,
                   "Missing required client capability: extension \"" + std::string(extension_id) + "\" " + std::string(why),
                   json::object{{"requiredCapabilities", json::object{{"extensions", json::object{{extension_id, json::object{}}}}}}}};
}

refusal method_not_found(std::string_view method) { return refuse(rpc_error::method_not_found(method), 404); }

std::string with_leading_fields(std::string_view object_json, std::string_view fields) {
  std::string out;
  out.reserve(object_json.size() + fields.size() + 2);
  out += '{';
  out += fields;
  auto rest = object_json.substr(1);  // after '{'
  if (trim(rest) != "}") out += ',';
  out += rest;
  return out;
}

std::string cacheable_fields(long long ttl_ms, std::string_view scope) {
  return std::string(complete_field) + R"(,"ttlMs":)" + std::to_string(ttl_ms) + R"(,"cacheScope":)" + json::quote(scope);
}

}  // namespace opentabs::mcp
