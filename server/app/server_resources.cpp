// The server's own MCP resources (see server_resources.hpp).
#include "app/server_resources.hpp"

#include <algorithm>

#include "app/payloads.hpp"
#include "app/resource_uris.hpp"
#include "audit/audit_entry.hpp"
#include "audit/audit_query.hpp"

namespace opentabs::app {

namespace {

json::array json_contents(std::string_view uri, const json::value& body) {
  return json::array{json::object{{"uri", json::str(uri)}, {"mimeType", "application/json"}, {"text", json::str(json::dump(body))}}};
}

}  // namespace

bool server_resources::lists_tabs() const {
  auto tool = state_.catalog.registry.find("browser_list_tabs");
  return tool && hub_.connected() && pipeline_.effective_permission(*tool) == tools::permission::auto_;
}

net::awaitable<std::vector<tools::listed_resource>> server_resources::list_resources(tools::call_options options) {
  auto out = fixed_resources();
  for (const auto& p : state_.catalog.plugins) {
    tools::listed_resource r;
    r.uri = plugin_uri(p.name());
    r.name = "plugin-" + p.name();
    r.title = p.loaded.display_name.empty() ? p.name() : p.loaded.display_name;
    r.description = "The " + p.name() + " plugin: its tools, sites, permissions and version.";
    r.mime_type = "application/json";
    out.push_back(std::move(r));
  }
  if (!lists_tabs()) co_return out;
  auto answer = co_await pipeline_.call_tool("browser_list_tabs", json::object{}, std::move(options));
  if (answer.is_error || answer.content.empty()) co_return out;
  const auto* block = answer.content.front().if_object();
  const auto* text = block ? json::get_string(*block, "text") : nullptr;
  auto tabs = text ? json::parse(*text) : result<json::value>(make_error(errc::internal, "no text"));
  if (tabs && tabs->is_array()) {
    auto listed = tab_resources(tabs->get_array());
    out.insert(out.end(), std::make_move_iterator(listed.begin()), std::make_move_iterator(listed.end()));
  }
  co_return out;
}

std::vector<tools::listed_template> server_resources::list_templates() const { return tab_templates(); }

json::array server_resources::tools_of_tab(std::int64_t tab_id) const {
  json::array out;
  for (const auto& p : state_.catalog.plugins)
    for (const auto* c : hub_.connections()) {
      const auto* entry = c->tabs.find(p.name());
      if (!entry) continue;
      bool has = false;
      for (const auto& t : entry->tabs) has = has || t.tab_id == tab_id;
      if (!has) continue;
      for (const auto& t : p.tools) out.push_back(json::str(t.name));
      break;
    }
  // And the WebMCP tools the page in the tab publishes.
  for (const auto& site : state_.webmcp.sites())
    if (std::find(site.tabs.begin(), site.tabs.end(), tab_id) != site.tabs.end())
      for (const auto& t : site.mcp_names) out.push_back(json::str(t));
  return out;
}

result<json::array> server_resources::read_own(std::string_view uri, const resource_ref& ref) const {
  switch (ref.kind) {
    case resource_kind::health: return json_contents(uri, health_());
    case resource_kind::audit: {
      audit::audit_query q;
      q.limit = audit_entries_shown;
      json::array entries;
      for (const auto& e : state_.audit.query(q)) entries.push_back(audit::to_json(e));
      return json_contents(uri, entries);
    }
    case resource_kind::plugin: {
      const auto* p = state_.catalog.find_plugin(ref.plugin);
      if (!p) return make_error(errc::not_found, "no plugin named " + ref.plugin + " is loaded");
      return json_contents(uri, plugin_description(state_.config, state_.catalog, hub_, *p));
    }
    default: return make_error(errc::internal, "not a server resource");
  }
}

net::awaitable<result<json::array>> server_resources::read_resource(std::string uri, tools::call_options options) {
  auto ref = parse_resource_ref(uri);
  if (!ref) co_return make_error(errc::not_found, "");
  auto read = tab_read_for(*ref);
  if (!read) co_return read_own(uri, *ref);
  auto answer = co_await pipeline_.call_tool(std::move(read->tool), std::move(read->arguments), std::move(options));
  auto contents = contents_of(uri, answer);
  if (!contents || ref->kind != resource_kind::tab) co_return contents;
  // The tab's description: its info as the tool gave it, plus the plugin and WebMCP tools it has.
  const auto* text = json::get_string((*contents)[0].get_object(), "text");
  auto info = text ? json::parse(*text) : result<json::value>(make_error(errc::internal, "no text"));
  if (!info || !info->is_object()) co_return contents;
  info->get_object()["tools"] = tools_of_tab(ref->tab_id);
  co_return json_contents(uri, *info);
}

bool server_resources::can_subscribe(std::string_view uri) const {
  auto ref = parse_resource_ref(uri);
  if (!ref) return false;
  if (ref->kind == resource_kind::plugin) return state_.catalog.find_plugin(ref->plugin) != nullptr;
  return true;
}

}  // namespace opentabs::app
