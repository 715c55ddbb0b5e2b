#include "app/plugin_tabs.hpp"

#include <algorithm>

#include "util/strings.hpp"

namespace opentabs::app {

std::string host_of_pattern(std::string_view pattern) {
  auto p = pattern.find("://");
  if (p == std::string_view::npos) return {};
  auto rest = pattern.substr(p + 3);
  return std::string(rest.substr(0, rest.find('/')));
}

std::string host_of_url(std::string_view url) {
  // As the WHATWG URL parser (Chrome's) reads it: tabs and newlines anywhere are dropped,
  // leading and trailing spaces and controls too; for the special schemes any run of
  // slashes and backslashes follows the colon and a backslash ends the host as a slash
  // does, so "https://evil.example\@bank.example" opens evil.example.
  std::string u;
  u.reserve(url.size());
  for (char c : url)
    if (c != '\t' && c != '\n' && c != '\r') u += c;
  std::string_view v(u);
  while (!v.empty() && static_cast<unsigned char>(v.front()) <= 0x20) v.remove_prefix(1);
  while (!v.empty() && static_cast<unsigned char>(v.back()) <= 0x20) v.remove_suffix(1);
  const auto colon = v.find(':');
  if (colon == std::string_view::npos || colon == 0) return {};
  for (std::size_t i = 0; i < colon; ++i) {
    const char c = v[i];
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!alpha && (i == 0 || !((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.'))) return {};
  }
  const std::string scheme = to_lower(v.substr(0, colon));
  const bool special = scheme == "http" || scheme == "https" || scheme == "ws" || scheme == "wss" || scheme == "ftp" || scheme == "file";
  auto rest = v.substr(colon + 1);
  if (special) {
    while (!rest.empty() && (rest.front() == '/' || rest.front() == '\\')) rest.remove_prefix(1);
  } else {
    if (!rest.starts_with("//")) return {};
    rest.remove_prefix(2);
  }
  rest = rest.substr(0, rest.find_first_of(special ? "/\\?#" : "/?#"));
  if (auto at = rest.rfind('@'); at != std::string_view::npos) rest = rest.substr(at + 1);
  return to_lower(rest);
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

std::string describe_tab(const extension_hub& hub, std::int64_t tab_id) {
  std::string text = "tab " + std::to_string(tab_id);
  for (const auto* c : hub.connections())
    if (const auto* t = c->tabs.find_tab(tab_id)) {
      if (auto host = host_of_url(t->url); !host.empty()) text += " (" + host + ")";
      break;
    }
  return text;
}

std::string plugin_tab_hosts(const extension_hub& hub, const std::string& plugin) {
  std::vector<std::string> hosts;
  for (const auto* c : hub.connections()) {
    const auto* entry = c->tabs.find(plugin);
    if (!entry) continue;
    for (const auto& t : entry->tabs) {
      auto host = host_of_url(t.url);
      if (!host.empty() && std::find(hosts.begin(), hosts.end(), host) == hosts.end()) hosts.push_back(std::move(host));
    }
  }
  std::string out;
  for (const auto& h : hosts) out += (out.empty() ? "" : ", ") + h;
  return out;
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
