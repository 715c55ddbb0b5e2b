#include "app/npm_commands.hpp"

#include <array>

#include "plugins/naming.hpp"
#include "util/strings.hpp"

namespace opentabs::app::npm {

namespace {

bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';
}

// One part of a name (the scope without '@', or the bare name).
bool valid_part(std::string_view s) {
  if (s.empty()) return false;
  if (s.front() == '.' || s.front() == '_' || s.front() == '-') return false;
  for (char c : s)
    if (!name_char(c)) return false;
  return true;
}

std::string cut(std::string_view s, std::size_t n) {
  if (s.size() <= n) return std::string(s);
  return std::string(s.substr(0, n)) + "…";
}

bool plausible_version(std::string_view v) {
  if (v.empty() || v.size() > 64) return false;
  if (!((v[0] >= '0' && v[0] <= '9') || v[0] == 'v')) return false;
  for (char c : v) {
    bool ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' || c == '-' ||
              c == '+';
    if (!ok) return false;
  }
  return true;
}

std::string string_field(const json::object& o, std::string_view key) {
  const auto* s = json::get_string(o, key);
  return s ? std::string(*s) : std::string();
}

// `author` in search output: {name} or a string.
std::string person_name(const json::object& entry, std::string_view key) {
  const auto* v = json::find(entry, key);
  if (!v) return {};
  if (v->is_string()) return std::string(v->get_string());
  if (v->is_object()) {
    if (auto n = string_field(v->get_object(), "username"); !n.empty()) return n;
    return string_field(v->get_object(), "name");
  }
  return {};
}

std::string_view strip_npm_prefix(std::string_view line) {
  for (std::string_view p : {"npm error ", "npm ERR! ", "npm error", "npm ERR!"})
    if (starts_with(line, p)) return trim(line.substr(p.size()));
  return {};
}

}  // namespace

bool is_valid_package_name(std::string_view name) noexcept {
  if (name.empty() || name.size() > max_package_name_length) return false;
  if (name == "node_modules" || name == "favicon.ico") return false;
  if (name.front() == '@') {
    auto slash = name.find('/');
    if (slash == std::string_view::npos) return false;
    return valid_part(name.substr(1, slash - 1)) && valid_part(name.substr(slash + 1));
  }
  return valid_part(name);
}

bool is_plugin_package_name(std::string_view name) noexcept {
  if (!is_valid_package_name(name)) return false;
  std::string_view bare = name;
  if (name.front() == '@') bare = name.substr(name.find('/') + 1);
  if (!starts_with(bare, plugins::package_prefix) || bare.size() == plugins::package_prefix.size()) return false;
  auto plugin = plugins::plugin_name_from_package(name);
  return plugin.ok();
}

result<std::vector<std::string>> plugin_package_candidates(std::string_view input) {
  auto bad = [&](const std::string& why) {
    return make_error(errc::invalid_params, "Invalid plugin name: " + quote_for_error(input) + " " + why);
  };
  if (input.empty()) return bad("is empty");
  if (input.size() > max_package_name_length) return bad("is longer than 214 characters");
  bool full = input.front() == '@' || starts_with(input, plugins::package_prefix);
  if (full) {
    if (!is_valid_package_name(input))
      return bad("is not a valid npm package name (lowercase letters, digits, - . _ ~; optional @scope/)");
    if (!is_plugin_package_name(input))
      return bad("does not match opentabs-plugin-* or @scope/opentabs-plugin-* (with a valid plugin name)");
    return std::vector<std::string>{std::string(input)};
  }
  // A shorthand is a plugin name: "slack", "my-tool".
  if (!plugins::is_valid_plugin_name(input))
    return bad("is neither a package name (opentabs-plugin-* or @scope/opentabs-plugin-*) nor a plugin name "
               "(lowercase letters and digits separated by single hyphens)");
  std::vector<std::string> out = {std::string(official_scope) + "/" + std::string(plugins::package_prefix) + std::string(input),
                                  std::string(plugins::package_prefix) + std::string(input)};
  for (const auto& c : out)
    if (!is_plugin_package_name(c)) return bad("does not give a valid plugin package name");
  return out;
}

std::vector<std::string> install_argv(const std::string& package) {
  return {"npm", "install", "--global", "--no-audit", "--no-fund", "--no-update-notifier", "--", package};
}

std::vector<std::string> update_argv(const std::string& package) {
  return {"npm", "update", "--global", "--no-audit", "--no-fund", "--no-update-notifier", "--", package};
}

std::vector<std::string> uninstall_argv(const std::string& package) {
  return {"npm", "uninstall", "--global", "--no-audit", "--no-fund", "--no-update-notifier", "--", package};
}

std::vector<std::string> view_version_argv(const std::string& package) {
  return {"npm", "view", "--json", "--no-update-notifier", "--", package, "version"};
}

std::vector<std::string> view_manifest_argv(const std::string& package, const std::string& version) {
  return {"npm", "view", "--json", "--no-update-notifier", "--", package + "@" + version, "opentabs"};
}

std::vector<std::string> search_argv(const std::string& query) {
  std::vector<std::string> argv = {"npm", "search", "--json", "--searchlimit=" + std::to_string(max_search_results),
                                   "--no-update-notifier", "--", "keywords:opentabs-plugin"};
  if (!query.empty()) argv.push_back(query);
  return argv;
}

result<std::string> search_query_from(const json::value* query) {
  if (!query || query->is_null()) return std::string();
  if (!query->is_string()) return make_error(errc::invalid_params, "Invalid params: query must be a string if provided");
  std::string_view q = trim(std::string_view(query->get_string()));
  if (q.size() > max_search_query_length)
    return make_error(errc::invalid_params, "Invalid params: query is longer than " + std::to_string(max_search_query_length) +
                                            " characters");
  for (char c : q)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      return make_error(errc::invalid_params, "Invalid params: query contains control characters");
  return std::string(q);
}

result<std::vector<search_hit>> parse_search_output(std::string_view stdout_text) {
  auto parsed = json::parse(trim(stdout_text), {.max_bytes = 16 * 1024 * 1024, .max_depth = 32});
  if (!parsed || !parsed->is_array())
    return make_error(errc::io, "npm search did not print a JSON list (" +
                                        (parsed ? "got " + std::string(json::type_name(*parsed)) : parsed.err().message) + ")");
  std::vector<search_hit> out;
  for (const auto& v : parsed->get_array()) {
    if (out.size() >= max_search_results) break;
    if (!v.is_object()) continue;
    const auto& e = v.get_object();
    search_hit h;
    h.name = string_field(e, "name");
    h.version = string_field(e, "version");
    if (!is_plugin_package_name(h.name) || !plausible_version(h.version)) continue;
    h.description = cut(string_field(e, "description"), 1000);
    h.author = person_name(e, "publisher");
    if (h.author.empty()) h.author = person_name(e, "author");
    if (h.author.empty()) h.author = "unknown";
    h.author = cut(h.author, 200);
    h.display_name = h.name;
    out.push_back(std::move(h));
  }
  return out;
}

void apply_manifest_output(search_hit& hit, std::string_view stdout_text) {
  auto parsed = json::parse_object(trim(stdout_text), {.max_bytes = 1024 * 1024, .max_depth = 32});
  if (!parsed) return;
  auto display = string_field(*parsed, "displayName");
  if (!display.empty()) hit.display_name = cut(display, 200);
  auto icon = string_field(*parsed, "iconSvg");
  if (icon.size() <= max_icon_svg_bytes) hit.icon_svg = icon;
  auto dark = string_field(*parsed, "iconDarkSvg");
  if (dark.size() <= max_icon_svg_bytes) hit.icon_dark_svg = dark;
  if (hit.description.empty()) hit.description = cut(string_field(*parsed, "description"), 1000);
}

json::object search_hit_json(const search_hit& h) {
  return json::object{{"name", json::str(h.name)},
                      {"displayName", json::str(h.display_name)},
                      {"description", json::str(h.description)},
                      {"version", json::str(h.version)},
                      {"author", json::str(h.author)},
                      {"iconSvg", json::str(h.icon_svg)},
                      {"iconDarkSvg", json::str(h.icon_dark_svg)}};
}

std::optional<std::string> parse_view_version(std::string_view stdout_text) {
  auto t = trim(stdout_text);
  std::string v;
  if (!t.empty() && t.front() == '"') {
    auto parsed = json::parse(t);
    if (!parsed || !parsed->is_string()) return std::nullopt;
    v = std::string(parsed->get_string());
  } else if (!t.empty() && t.front() == '[') {
    // Several matching versions: npm prints a list; the last is the newest.
    auto parsed = json::parse(t);
    if (!parsed || !parsed->is_array() || parsed->get_array().empty() || !parsed->get_array().back().is_string())
      return std::nullopt;
    v = std::string(parsed->get_array().back().get_string());
  } else {
    v = std::string(t);
  }
  if (!plausible_version(v)) return std::nullopt;
  return v;
}

bool is_newer(std::string_view current, std::string_view latest) {
  auto parse = [](std::string_view v) {
    if (!v.empty() && v.front() == 'v') v.remove_prefix(1);
    std::array<long long, 3> parts{0, 0, 0};
    auto segs = split(v, '.');
    for (std::size_t i = 0; i < 3 && i < segs.size(); ++i) {
      auto s = segs[i];
      if (auto h = s.find_first_of("-+"); h != std::string_view::npos) s = s.substr(0, h);
      long long n = 0;
      bool ok = !s.empty() && s.size() <= 15;
      for (char c : s) {
        if (c < '0' || c > '9') {
          ok = false;
          break;
        }
        n = n * 10 + (c - '0');
      }
      parts[i] = ok ? n : 0;
    }
    return parts;
  };
  auto c = parse(current), l = parse(latest);
  for (int i = 0; i < 3; ++i) {
    if (l[i] > c[i]) return true;
    if (l[i] < c[i]) return false;
  }
  return false;
}

failure describe_failure(std::string_view stderr_text, int exit_code) {
  failure f;
  std::string first_plain, fetch_line, not_found_line;
  for (auto raw : split(stderr_text, '\n')) {
    auto line = strip_npm_prefix(trim(raw));
    if (line.empty()) continue;
    if (starts_with(line, "code ")) {
      if (f.code.empty()) f.code = std::string(trim(line.substr(5)));
      continue;
    }
    if (starts_with(line, "errno ")) {
      auto v = trim(line.substr(6));
      if (f.code.empty() && !v.empty() && !(v[0] == '-' || (v[0] >= '0' && v[0] <= '9'))) f.code = std::string(v);
      continue;
    }
    if (starts_with(line, "syscall ") || starts_with(line, "at ") || starts_with(line, "A complete log") ||
        starts_with(line, "Log files were not written") || starts_with(line, "You can rerun") ||
        line.find("/_logs/") != std::string_view::npos)
      continue;
    if (fetch_line.empty() && line.find("request to ") != std::string_view::npos &&
        line.find(" failed") != std::string_view::npos) {
      auto l = line;
      if (auto p = l.find("request to "); p != std::string_view::npos) l = l.substr(p);
      fetch_line = std::string(l);
    }
    if (not_found_line.empty() && starts_with(line, "404 ") && line.find("Not Found") != std::string_view::npos)
      not_found_line = std::string(line);
    if (first_plain.empty() && line != "404") first_plain = std::string(line);
  }
  f.reason = !fetch_line.empty() ? fetch_line : !not_found_line.empty() ? not_found_line : first_plain;
  if (f.reason.empty()) f.reason = "npm exited with code " + std::to_string(exit_code);
  f.reason = cut(redact_credentials(f.reason), 300);
  if (f.code.size() > 40) f.code.clear();
  f.kind = kind_of_code(f.code);
  // npm versions that print no "code" line still print the registry's "404 Not Found".
  if (f.code.empty() && !not_found_line.empty()) f.kind = failure_kind::package_not_found;
  return f;
}

bool is_network_code(std::string_view code) noexcept {
  static constexpr std::array<std::string_view, 12> codes = {
      "ECONNREFUSED", "ENOTFOUND",  "ETIMEDOUT",  "EAI_AGAIN",    "ECONNRESET",         "EHOSTUNREACH",
      "ENETUNREACH",  "EPIPE",      "ESOCKETTIMEDOUT", "ERR_SOCKET_TIMEOUT", "FETCH_ERROR", "EPROTO"};
  for (auto c : codes)
    if (c == code) return true;
  return false;
}

failure_kind kind_of_code(std::string_view code) noexcept {
  if (is_network_code(code)) return failure_kind::unreachable;
  if (code == "E404") return failure_kind::package_not_found;
  if (code == "EACCES" || code == "EPERM") return failure_kind::no_permission;
  return failure_kind::other;
}

error failure_error(const failure& f, std::string message) {
  error e = make_error(f.kind, std::move(message));
  e.npm_code = f.code;
  return e;
}

std::string failure_message(std::string_view action, std::string_view package, const failure& f) {
  std::string head = "npm " + std::string(action) + " " + std::string(package) + " failed: ";
  std::string detail = f.code.empty() || f.reason.find(f.code) != std::string::npos ? f.reason : f.code + ": " + f.reason;
  switch (f.kind) {
    case failure_kind::unreachable: return head + "the npm registry could not be reached (" + detail + ")";
    case failure_kind::package_not_found: return head + "the package was not found in the npm registry (" + detail + ")";
    case failure_kind::no_permission:
      return head + "no permission to write npm's global directory (" + detail + "); set npm's prefix to a directory you own";
    case failure_kind::other: break;
  }
  return head + detail;
}

std::string redact_credentials(std::string_view text) {
  std::string out(text);
  // //user:pass@host → //***@host
  for (std::size_t pos = 0; (pos = out.find("://", pos)) != std::string::npos;) {
    std::size_t start = pos + 3;
    std::size_t end = out.find_first_of("/ \t\"'", start);
    if (end == std::string::npos) end = out.size();
    std::size_t at = out.rfind('@', end == 0 ? 0 : end - 1);
    if (at != std::string::npos && at >= start && at < end) {
      out.replace(start, at - start, "***");
      pos = start + 4;
    } else {
      pos = start;
    }
  }
  for (std::string_view key : {"_authToken=", "_auth=", "_password=", "token="}) {
    for (std::size_t pos = 0; (pos = out.find(key, pos)) != std::string::npos;) {
      std::size_t v = pos + key.size();
      std::size_t end = out.find_first_of(" \t\"'\n", v);
      if (end == std::string::npos) end = out.size();
      out.replace(v, end - v, "***");
      pos = v + 3;
    }
  }
  return out;
}

}  // namespace opentabs::app::npm
