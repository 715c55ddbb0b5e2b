// The server's own MCP resources by URI (see resource_uris.hpp).
#include "app/resource_uris.hpp"

#include <charconv>

namespace opentabs::app {

namespace {

constexpr std::string_view kScheme = "opentabs://";
constexpr std::string_view kPlugins = "plugins/";
constexpr std::string_view kTabs = "tabs/";

std::optional<std::int64_t> positive_id(std::string_view text) {
  std::int64_t id = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (ec != std::errc() || end != text.data() + text.size() || id <= 0) return std::nullopt;
  return id;
}

std::optional<resource_ref> parse_tab(std::string_view rest) {
  auto slash = rest.find('/');
  auto id = positive_id(rest.substr(0, slash));
  if (!id) return std::nullopt;
  if (slash == std::string_view::npos) return resource_ref{resource_kind::tab, {}, *id};
  auto view = rest.substr(slash + 1);
  if (view == "text") return resource_ref{resource_kind::tab_text, {}, *id};
  if (view == "screenshot") return resource_ref{resource_kind::tab_screenshot, {}, *id};
  if (view == "snapshot") return resource_ref{resource_kind::tab_snapshot, {}, *id};
  return std::nullopt;
}

std::string text_of(const tools::call_result& answer) {
  std::string out;
  for (const auto& block : answer.content)
    if (const auto* o = block.if_object())
      if (const auto* t = json::get_string(*o, "text")) {
        if (!out.empty()) out += '\n';
        out += *t;
      }
  return out;
}

}  // namespace

std::optional<resource_ref> parse_resource_ref(std::string_view uri) {
  if (!uri.starts_with(kScheme)) return std::nullopt;
  auto rest = uri.substr(kScheme.size());
  if (rest == "health") return resource_ref{resource_kind::health, {}, 0};
  if (rest == "audit") return resource_ref{resource_kind::audit, {}, 0};
  if (rest.starts_with(kPlugins)) {
    auto name = rest.substr(kPlugins.size());
    if (name.empty() || name.find('/') != std::string_view::npos) return std::nullopt;
    return resource_ref{resource_kind::plugin, std::string(name), 0};
  }
  if (rest.starts_with(kTabs)) return parse_tab(rest.substr(kTabs.size()));
  return std::nullopt;
}

std::string plugin_uri(std::string_view plugin) { return std::string(kScheme) + std::string(kPlugins) + std::string(plugin); }
std::string tab_uri(std::int64_t tab_id) { return std::string(kScheme) + std::string(kTabs) + std::to_string(tab_id); }

std::optional<tab_read> tab_read_for(const resource_ref& ref) {
  json::object args{{"tabId", ref.tab_id}};
  switch (ref.kind) {
    case resource_kind::tab: return tab_read{"browser_get_tab_info", std::move(args)};
    case resource_kind::tab_text: return tab_read{"browser_get_tab_content", std::move(args)};
    case resource_kind::tab_screenshot:
      args["format"] = "png";
      return tab_read{"browser_screenshot_tab", std::move(args)};
    case resource_kind::tab_snapshot: return tab_read{"browser_snapshot", std::move(args)};
    default: return std::nullopt;
  }
}

std::vector<tools::listed_resource> fixed_resources() {
  return {
      {"opentabs://health", "health", "OpenTabs server health",
       "The server's state: extension connections, plugins, MCP clients, audit summary (as GET /health).", "application/json"},
      {"opentabs://audit", "audit", "Recent tool calls",
       "The newest entries of the audit log (newest first): each tool call, who asked, how it ended.", "application/json"},
  };
}

std::vector<tools::listed_template> tab_templates() {
  return {
      {"opentabs://tabs/{tabId}", "tab", "Open tab", "An open tab: title, URL and the plugin and WebMCP tools it has.", "application/json"},
      {"opentabs://tabs/{tabId}/text", "tab-text", "Tab text",
       "The tab's visible text (untrusted page content, marked as such).", "text/plain"},
      {"opentabs://tabs/{tabId}/screenshot", "tab-screenshot", "Tab screenshot", "The tab's viewport as a PNG image.", "image/png"},
      {"opentabs://tabs/{tabId}/snapshot", "tab-snapshot", "Tab accessibility snapshot",
       "The tab's elements (role, name, value, state) with refs the browser tools act on.", "text/plain"},
  };
}

std::vector<tools::listed_resource> tab_resources(const json::array& listed_tabs) {
  std::vector<tools::listed_resource> out;
  for (const auto& v : listed_tabs) {
    const auto* tab = v.if_object();
    const auto* id = tab ? json::find(*tab, "id") : nullptr;
    if (!id || !id->is_int64()) continue;
    const auto* title = json::get_string(*tab, "title");
    const auto* url = json::get_string(*tab, "url");
    tools::listed_resource r;
    r.uri = tab_uri(id->get_int64());
    r.name = "tab-" + std::to_string(id->get_int64());
    r.title = title && !title->empty() ? std::string(*title) : url ? std::string(*url) : r.name;
    r.description = "Open tab" + (url ? ": " + std::string(*url) : std::string()) +
                    ". Its text, screenshot and accessibility snapshot: " + r.uri + "/text, /screenshot, /snapshot.";
    r.mime_type = "application/json";
    // The text as a listed resource of its own, beside the template: Claude Code attaches
    // with `@` only a URI it was given by resources/list.
    tools::listed_resource text;
    text.uri = r.uri + "/text";
    text.name = r.name + "-text";
    text.title = r.title + " (text)";
    text.description = "The visible text of this tab (untrusted page content, marked as such).";
    text.mime_type = "text/plain";
    out.push_back(std::move(r));
    out.push_back(std::move(text));
  }
  return out;
}

result<json::array> contents_of(std::string_view uri, const tools::call_result& answer) {
  if (answer.is_error || answer.failure) {
    auto text = text_of(answer);
    auto kind = text.find("No tab with id") != std::string::npos ? errc::not_found : answer.failure.value_or(errc::tool_failed);
    return make_error(kind, text.empty() ? "the read failed" : text);
  }
  for (const auto& block : answer.content)
    if (const auto* o = block.if_object())
      if (const auto* type = json::get_string(*o, "type"); type && *type == "image") {
        const auto* data = json::get_string(*o, "data");
        const auto* mime = json::get_string(*o, "mimeType");
        if (!data) break;
        return json::array{json::object{{"uri", json::str(uri)}, {"mimeType", mime ? json::value(*mime) : json::value("image/png")}, {"blob", json::value(*data)}}};
      }
  // browser_get_tab_content answers {url, title, content}: the resource is the (marked) content.
  auto text = text_of(answer);
  if (auto parsed = json::parse(text); parsed && parsed->is_object())
    if (const auto* content = json::get_string(parsed->get_object(), "content")) text = std::string(*content);
  return json::array{json::object{{"uri", json::str(uri)}, {"mimeType", "text/plain"}, {"text", json::str(text)}}};
}

}  // namespace opentabs::app
