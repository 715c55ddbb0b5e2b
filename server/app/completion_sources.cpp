#include "app/completion_sources.hpp"

#include <set>

namespace opentabs::app {

std::vector<mcp::completion_candidate> completion_sources::tabs() const {
  std::vector<mcp::completion_candidate> out;
  std::set<std::int64_t> seen;
  for (const auto* c : hub_.connections())
    for (const auto& p : catalog_.plugins)
      if (const auto* entry = c->tabs.find(p.name()))
        for (const auto& t : entry->tabs)
          if (seen.insert(t.tab_id).second) out.push_back({std::to_string(t.tab_id), t.title + " " + t.url});
  for (const auto& site : webmcp_.sites())
    for (auto id : site.tabs)
      if (seen.insert(id).second) out.push_back({std::to_string(id), site.site});
  return out;
}

std::vector<std::string> completion_sources::plugins_on_tab(std::int64_t tab_id) const {
  std::vector<std::string> out;
  for (const auto* c : hub_.connections())
    for (const auto& p : catalog_.plugins)
      if (const auto* entry = c->tabs.find(p.name()))
        for (const auto& t : entry->tabs)
          if (t.tab_id == tab_id) out.push_back(p.name());
  return out;
}

std::vector<mcp::completion_candidate> completion_sources::plugins() const {
  std::vector<mcp::completion_candidate> out;
  for (const auto& p : catalog_.plugins) out.push_back({p.name(), p.loaded.display_name + " " + p.loaded.description});
  return out;
}

std::vector<mcp::completion_candidate> completion_sources::tool_names() const {
  std::vector<mcp::completion_candidate> out;
  for (const auto& t : tools_.list_tools()) out.push_back({t.name, t.plugin});
  return out;
}

namespace {

template <class Read>
mcp::completion_source source_of(Read read) {
  return [read](const json::object&) -> net::awaitable<std::vector<mcp::completion_candidate>> { co_return read(); };
}

}  // namespace

net::awaitable<std::vector<mcp::completion_candidate>> completion_sources::all_tabs() const {
  auto out = tabs();
  bool listing_runs_freely = false;
  for (const auto& t : tools_.list_tools())
    if (t.name == "browser_list_tabs") listing_runs_freely = !t.description.starts_with("[");
  if (!listing_runs_freely) co_return out;
  std::set<std::string> seen;
  for (const auto& c : out) seen.insert(c.value);
  std::vector<std::string> ids;
  for (const auto* c : hub_.connections()) ids.push_back(c->id);
  for (const auto& id : ids) {
    request_options ro;
    ro.connection_id = id;
    ro.label = "browser_list_tabs (completion)";
    auto asked = hub_.request("browser.listTabs", json::object{}, std::move(ro));
    auto reply = co_await std::move(asked);
    const auto* list = reply.ok() ? reply.result.if_array() : nullptr;
    if (!list) continue;
    for (const auto& item : *list) {
      const auto* tab = item.if_object();
      auto tab_id = tab ? json::get_int(*tab, "id") : std::nullopt;
      if (!tab_id || !seen.insert(std::to_string(*tab_id)).second) continue;
      const auto* title = json::get_string(*tab, "title");
      const auto* url = json::get_string(*tab, "url");
      out.push_back({std::to_string(*tab_id), (title ? std::string(*title) : std::string()) + " " + (url ? std::string(*url) : std::string())});
    }
  }
  co_return out;
}

mcp::completion_source completion_sources::tabs_source() const {
  return [this](const json::object&) { return all_tabs(); };
}
mcp::completion_source completion_sources::plugins_source() const {
  return source_of([this] { return plugins(); });
}
mcp::completion_source completion_sources::tools_source() const {
  return source_of([this] { return tool_names(); });
}

}  // namespace opentabs::app
