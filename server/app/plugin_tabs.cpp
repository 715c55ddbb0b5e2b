#include "app/plugin_tabs.hpp"

namespace opentabs::app {

std::string host_of_pattern(std::string_view pattern) {
  auto p = pattern.find("://");
  if (p == std::string_view::npos) return {};
  auto rest = pattern.substr(p + 3);
  return std::string(rest.substr(0, rest.find('/')));
}

std::string host_of_url(std::string_view url) {
  auto p = url.find("://");
  if (p == std::string_view::npos) return {};
  auto rest = url.substr(p + 3);
  rest = rest.substr(0, rest.find_first_of("/?#"));
  if (auto at = rest.rfind('@'); at != std::string_view::npos) rest = rest.substr(at + 1);
  return std::string(rest);
}

std::string normalize_host(std::string host) {
  for (const char* loop : {"127.0.0.1", "[::1]"}) {
    std::string_view l(loop);
    if (host.rfind(l, 0) == 0 && (host.size() == l.size() || host[l.size()] == ':'))
      host = "localhost" + host.substr(l.size());
  }
  return host;
}

std::optional<std::int64_t> tab_for_host_pattern(const extension_hub& hub, const std::string& plugin,
                                                 std::string_view host_pattern) {
  const auto want = normalize_host(host_of_pattern(host_pattern));
  std::optional<std::int64_t> fallback;
  for (const auto* c : hub.connections()) {
    const auto* entry = c->tabs.find(plugin);
    if (!entry) continue;
    for (const auto& t : entry->tabs) {
      if (normalize_host(host_of_url(t.url)) != want) continue;
      if (t.ready) return t.tab_id;
      if (!fallback) fallback = t.tab_id;
    }
  }
  return fallback;
}

namespace {

json::object plugin_tab_entry(const plugins::plugin& p, const extension_hub& hub) {
  auto state = tab_state::closed;
  json::array tabs;
  for (const auto* c : hub.connections()) {
    const auto* e = c->tabs.find(p.name());
    if (!e) continue;
    state = best_of(state, e->state);
    for (const auto& t : e->tabs) {
      json::object tab = t.to_json();
      tab["connectionId"] = json::str(c->id);
      auto host = normalize_host(host_of_url(t.url));
      for (const auto& kv : p.settings.instance_map)
        if (kv.value().is_string() && normalize_host(host_of_pattern(kv.value().get_string())) == host)
          tab["instance"] = json::str(kv.key());
      tabs.push_back(std::move(tab));
    }
  }
  return json::object{{"plugin", json::str(p.name())},
                      {"displayName", json::str(p.loaded.display_name)},
                      {"state", json::str(to_string(state))},
                      {"tabs", std::move(tabs)}};
}

}  // namespace

json::value list_plugin_tabs(const std::vector<plugins::plugin>& loaded, const extension_hub& hub,
                             const std::string& plugin) {
  json::array out;
  for (const auto& p : loaded)
    if (plugin.empty() || p.name() == plugin) out.push_back(plugin_tab_entry(p, hub));
  if (!plugin.empty() && out.empty()) {
    std::string names;
    for (const auto& p : loaded) names += (names.empty() ? "" : ", ") + p.name();
    return json::object{{"error", json::str("Plugin \"" + plugin + "\" not found. Available plugins: " +
                                            (names.empty() ? std::string("(none)") : names))}};
  }
  return out;
}

}  // namespace opentabs::app
