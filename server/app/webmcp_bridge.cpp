#include "app/webmcp_bridge.hpp"

#include "app/call_results.hpp"
#include "app/extension_wire.hpp"
#include "app/invocation_notice.hpp"
#include "audit/audit_code.hpp"
#include "config/permissions.hpp"
#include "schema/validator.hpp"
#include "util/clock.hpp"
#include "util/log.hpp"
#include "util/strings.hpp"

namespace opentabs::app {
namespace {

using outcome = extension_hub::inbound_outcome;

constexpr std::size_t kMaxContentItems = 100;
// Calls in flight per site, like the per-plugin cap of tool.dispatch.
constexpr std::size_t kMaxConcurrentPerSite = 25;

json::object update_json(const webmcp_update& u) {
  json::array accepted, rejected;
  for (const auto& [tool, name] : u.accepted)
    accepted.push_back(json::object{{"tool", json::str(tool)}, {"name", json::str(name)}});
  for (const auto& r : u.rejected)
    rejected.push_back(json::object{{"tool", json::str(r.name)}, {"reason", json::str(r.reason)}});
  return json::object{{"accepted", std::move(accepted)}, {"rejected", std::move(rejected)}};
}

// A page may link only web resources: file:, chrome:, data: and every other scheme could make
// a client open something local on the page's word.
bool web_uri(std::string_view uri) {
  auto lower = to_lower(uri.substr(0, 8));
  return lower.starts_with("https://") || lower.starts_with("http://");
}

json::value removed_block(std::string_view why) {
  return json::object{{"type", "text"}, {"text", json::str("[a content block from the page was removed: " + std::string(why) + "]")}};
}

// One content block of a page's result, reduced to the block types and fields MCP defines
// (text, image, audio, resource_link, resource); anything else is replaced by a text block
// that says what was removed and why.
json::value webmcp_content_block(const json::object& block) {
  const std::string_view type = *json::get_string(block, "type");
  auto copy_fields = [&](json::object& out, std::initializer_list<std::string_view> names) {
    for (auto name : names)
      if (const auto* v = block.if_contains(name)) out[name] = sanitize_output(*v);
  };
  json::object out{{"type", json::str(type)}};
  auto string_field = [&](std::string_view name) { return json::get_string(block, name); };
  if (type == "text") {
    if (!string_field("text")) return removed_block("a text block needs a string \"text\"");
    copy_fields(out, {"text", "annotations", "_meta"});
  } else if (type == "image" || type == "audio") {
    const auto* mime = string_field("mimeType");
    if (!string_field("data") || !mime) return removed_block(std::string(type) + " blocks need \"data\" and \"mimeType\"");
    if (!to_lower(*mime).starts_with(std::string(type) + "/"))
      return removed_block(std::string("an ") + std::string(type) + " block's mimeType must be " + std::string(type) + "/*");
    copy_fields(out, {"data", "mimeType", "annotations", "_meta"});
  } else if (type == "resource_link") {
    const auto* uri = string_field("uri");
    if (!uri || !string_field("name")) return removed_block("a resource_link needs \"uri\" and \"name\"");
    if (!web_uri(*uri)) return removed_block("pages may link only http(s) resources");
    copy_fields(out, {"uri", "name", "title", "description", "mimeType", "size", "annotations", "_meta"});
  } else if (type == "resource") {
    const auto* res = json::get_object(block, "resource");
    const auto* uri = res ? json::get_string(*res, "uri") : nullptr;
    if (!uri || (!json::get_string(*res, "text") && !json::get_string(*res, "blob")))
      return removed_block("an embedded resource needs a \"uri\" and \"text\" or \"blob\"");
    if (!web_uri(*uri)) return removed_block("pages may embed only http(s) resources");
    json::object inner;
    for (auto name : {"uri", "mimeType", "text", "blob", "_meta"})
      if (const auto* v = res->if_contains(name)) inner[name] = sanitize_output(*v);
    out["resource"] = std::move(inner);
    copy_fields(out, {"annotations", "_meta"});
  } else {
    return removed_block("\"" + std::string(type.substr(0, 40)) + "\" is not an MCP content type");
  }
  return out;
}

// A page's tool result → MCP content.  {content:[…], isError} passes through block by block
// (webmcp_content_block; each block must be an object with a string "type"); anything else
// becomes one text block.
tools::call_result result_of(const json::value& reply) {
  tools::call_result r;
  const auto* obj = reply.if_object();
  const auto* content = obj ? json::get_array(*obj, "content") : nullptr;
  bool well_formed = content && !content->empty() && content->size() <= kMaxContentItems;
  if (well_formed)
    for (const auto& block : *content)
      if (!block.is_object() || !json::get_string(block.get_object(), "type")) well_formed = false;
  if (!well_formed) return success_result(reply, false);
  for (const auto& block : *content) r.content.push_back(webmcp_content_block(block.get_object()));
  r.is_error = json::get_bool(*obj, "isError").value_or(false);
  if (r.is_error) r.failure = errc::tool_failed;
  return r;
}

}  // namespace

webmcp_bridge::webmcp_bridge(webmcp_directory& webmcp, tool_registry& registry, extension_hub& hub, announcer& announce,
                             net::blocking_pool& pool)
    : webmcp_(webmcp), registry_(registry), hub_(hub), announce_(announce), pool_(pool) {}

void webmcp_bridge::publish() {
  registry_.set_webmcp_tools(webmcp_.tool_defs());
  announce_.config_changed();
}

void webmcp_bridge::register_methods(extension_hub::method_table& table) {
  using jsonrpc::params_kind, jsonrpc::call_kind, jsonrpc::rate_class;
  table.add("webmcp.frameTools", {[this](ext_connection& c, const json::object& params, const json::value* id) {
                                    return apply("webmcp.frameTools", webmcp_.replace_frame(c.id, params), id);
                                  },
                                  params_kind::object, call_kind::either, rate_class::limited});
  table.add("webmcp.syncAll", {[this](ext_connection& c, const json::object& params, const json::value* id) {
                                 return apply("webmcp.syncAll", webmcp_.sync_all(c.id, params), id);
                               },
                               params_kind::object, call_kind::either, rate_class::limited});
  table.add("webmcp.tabRemoved", {[this](ext_connection& c, const json::object& params, const json::value* id) {
                                    result<webmcp_update> update = webmcp_update{};
                                    auto tab = json::get_int(params, "tabId");
                                    if (!tab) update = make_error(errc::invalid_params, "tabId must be an integer");
                                    else update->changed = webmcp_.remove_tab(c.id, *tab);
                                    return apply("webmcp.tabRemoved", std::move(update), id);
                                  },
                                  params_kind::object, call_kind::either, rate_class::limited});
}

outcome webmcp_bridge::apply(const std::string& method, result<webmcp_update> update, const json::value* id) {
  if (!update) {
    log::debug(method + " rejected: " + update.err().message);
    if (id) return outcome{outcome::kind::reply, extension_error_reply(make_error(errc::invalid_params, "Invalid params: " + update.err().message))};
    return {};
  }
  for (const auto& r : update->rejected) log::info("WebMCP tool " + r.name + " refused: " + r.reason);
  if (update->changed) publish();
  if (!id) return {};
  return outcome{outcome::kind::reply, json::object{{"result", update_json(*update)}}};
}

void webmcp_bridge::connection_closed(const std::string& connection_id) {
  if (webmcp_.remove_connection(connection_id)) publish();
}

net::awaitable<result<std::shared_ptr<const schema::validator>>> webmcp_bridge::validator_for(const tools::tool_def& tool) {
  auto slot = webmcp_.schema_of(tool.name);
  if (!slot)
    co_return make_error(errc::not_found, "WebMCP tool " + tool.name +
                                          " is no longer available: its page was closed, navigated away or unregistered it.");
  if (!slot->compiled) {
    // The slot is shared: the worker reads only its immutable schema and limits; the outcome
    // is stored back here, on the io thread.
    auto compile = [slot] { return schema::validator::compile(slot->schema, slot->limits); };
    auto compiled = co_await pool_.run(std::move(compile));
    if (!slot->compiled) {
      slot->compiled = true;
      if (compiled) slot->validator = std::move(*compiled);
      else slot->error = compiled.err().message;
      if (!slot->validator) log::info("WebMCP tool " + tool.name + " unusable: its inputSchema was refused: " + slot->error);
    }
  }
  if (!slot->validator)
    co_return make_error(errc::unsupported, "WebMCP tool \"" + tool.name +
                                               "\" cannot be called: the page's inputSchema was refused: " + slot->error);
  co_return slot->validator;
}

net::awaitable<tools::call_result> webmcp_bridge::call_page_tool(const tools::tool_def& tool, json::object args,
                                                                 tools::call_options& options, audit::audit_entry& audit) {
  auto target = webmcp_.find(tool.name);
  if (!target) {
    audit.error = audit::make_audit_error(errc::not_found, "the page no longer offers this tool");
    co_return tools::call_result::text("WebMCP tool " + tool.name +
                                           " is no longer available: its page was closed, navigated away or "
                                           "unregistered it.",
                                       true, errc::not_found);
  }
  if (hub_.open_requests_for_plugin(tool.plugin) >= kMaxConcurrentPerSite) {
    audit.error = audit::make_audit_error(errc::rate_limited, "too many concurrent calls");
    co_return tools::call_result::text("Too many concurrent WebMCP calls for " + tool.plugin + " (limit " +
                                           std::to_string(kMaxConcurrentPerSite) + "). Wait for in-flight calls to complete.",
                                       true, errc::rate_limited);
  }
  invocation_notice notice(hub_, tool.plugin, tool.base_name);
  request_options ro;
  ro.connection_id = target->connection_id;
  ro.plugin = tool.plugin;
  ro.label = "WebMCP " + tool.name;
  ro.cancel = options.cancel;
  json::object params{{"tabId", target->tab_id},
                      {"frameId", target->frame_id},
                      {"tool", json::str(target->tool)},
                      {"arguments", std::move(args)}};
  if (!target->document_id.empty()) params["documentId"] = json::str(target->document_id);
  auto reply = co_await hub_.request("webmcp.callTool", std::move(params), std::move(ro));
  tools::call_result r;
  if (reply.ok()) {
    // Everything in it is the page's: marked as page text (call_results.cpp).
    r = mark_page_content(result_of(reply.result), target->url);
    if (r.is_error) audit.error = audit::make_audit_error(errc::tool_failed, "the page's tool reported an error");
  } else {
    // The message may be the page's own error reply: marked like its results.
    r = webmcp_failure(reply, target->url);
    audit.error = audit_error_of(reply);
  }
  notice.finish(!r.is_error);
  co_return r;
}

}  // namespace opentabs::app
