#include "plugins/url_pattern.hpp"

#include <algorithm>

namespace opentabs::plugins {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

bool valid_port(std::string_view p) {
  if (p.empty() || p.size() > 5) return false;
  int v = 0;
  for (char c : p) {
    if (!is_digit(c)) return false;
    v = v * 10 + (c - '0');
  }
  return v >= 1 && v <= 65535;
}

// "a.b.c.d" where every part is digits; error text when it looks like IPv4 but is not valid.
bool looks_ipv4(std::string_view h) {
  if (h.empty()) return false;
  int dots = 0;
  for (char c : h) {
    if (c == '.') ++dots;
    else if (!is_digit(c)) return false;
  }
  return dots == 3;
}

bool valid_ipv4(std::string_view h) {
  std::size_t pos = 0;
  for (int part = 0; part < 4; ++part) {
    std::size_t end = h.find('.', pos);
    std::string_view oct = h.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
    if (oct.empty() || oct.size() > 3 || (oct.size() > 1 && oct[0] == '0')) return false;
    int v = 0;
    for (char c : oct) v = v * 10 + (c - '0');
    if (v > 255) return false;
    pos = end == std::string_view::npos ? h.size() : end + 1;
  }
  return true;
}

bool valid_label(std::string_view l) {
  if (l.empty() || l.size() > 63 || l.front() == '-' || l.back() == '-') return false;
  for (char c : l)
    if (!((c >= 'a' && c <= 'z') || is_digit(c) || c == '-')) return false;
  return true;
}

bool glob(std::string_view pat, std::string_view s) {
  // Iterative '*' glob (no backtracking blow-up): classic two-pointer algorithm.
  std::size_t p = 0, i = 0, star = std::string_view::npos, mark = 0;
  while (i < s.size()) {
    if (p < pat.size() && pat[p] == '*') {
      star = p++;
      mark = i;
    } else if (p < pat.size() && pat[p] == s[i]) {
      ++p;
      ++i;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      i = ++mark;
    } else {
      return false;
    }
  }
  while (p < pat.size() && pat[p] == '*') ++p;
  return p == pat.size();
}

struct pattern_parts {
  std::string scheme, host, port, path;
};

std::optional<pattern_parts> split_pattern(std::string_view p) {
  auto sep = p.find("://");
  if (sep == std::string_view::npos) return std::nullopt;
  pattern_parts out;
  out.scheme = std::string(p.substr(0, sep));
  std::string_view rest = p.substr(sep + 3);
  auto slash = rest.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  std::string_view hostport = rest.substr(0, slash);
  out.path = std::string(rest.substr(slash));
  auto colon = hostport.rfind(':');
  if (colon != std::string_view::npos) {
    out.host = lower(hostport.substr(0, colon));
    out.port = std::string(hostport.substr(colon + 1));
  } else {
    out.host = lower(hostport);
  }
  return out;
}

}  // namespace

status validate_url_pattern(std::string_view pattern) {
  auto fail = [&](const std::string& why) {
    return make_error(errc::invalid_params, "URL pattern \"" + std::string(pattern.substr(0, 300)) + "\" " + why);
  };
  if (pattern.size() > 2048) return fail("is longer than 2048 characters");
  if (pattern == "<all_urls>") return fail("matches every site (<all_urls> is not allowed)");
  auto parts = split_pattern(pattern);
  if (!parts) return fail("must have the form <scheme>://<host>/<path>");
  if (parts->scheme != "*" && parts->scheme != "http" && parts->scheme != "https")
    return fail("must use the scheme *, http or https");
  const std::string& host = parts->host;
  if (host.empty()) return fail("has no host");
  if (host == "*") return fail("matches every host (a bare * host is not allowed)");
  if (!parts->port.empty() && !valid_port(parts->port)) return fail("has an invalid port \"" + parts->port + "\"");
  if (host == "localhost") {
    // fine, with or without a port
  } else if (looks_ipv4(host)) {
    if (!valid_ipv4(host)) return fail("has an invalid IPv4 address \"" + host + "\"");
  } else {
    if (!parts->port.empty()) return fail("may have a port only with localhost or an IPv4 address");
    std::string_view h = host;
    bool wildcard = h.substr(0, 2) == "*.";
    if (wildcard) h.remove_prefix(2);
    if (h.find('*') != std::string_view::npos) return fail("may use * only as the first label of the host (*.example.com)");
    std::size_t labels = 0, pos = 0;
    while (true) {
      auto dot = h.find('.', pos);
      std::string_view label = h.substr(pos, dot == std::string_view::npos ? std::string_view::npos : dot - pos);
      if (!valid_label(label)) return fail("has an invalid host \"" + host + "\"");
      ++labels;
      if (dot == std::string_view::npos) break;
      pos = dot + 1;
    }
    if (labels < 2) {
      if (wildcard) return fail("matches a whole top-level domain (*." + std::string(h) + ")");
      return fail("must name a domain with a top-level domain (example.com), localhost or an IPv4 address");
    }
  }
  if (std::count(parts->path.begin(), parts->path.end(), '*') > 5) return fail("has more than 5 * in its path");
  return ok();
}

std::optional<parsed_url> parse_http_url(std::string_view url) {
  if (url.size() > 8192) return std::nullopt;
  auto sep = url.find("://");
  if (sep == std::string_view::npos) return std::nullopt;
  parsed_url out;
  out.scheme = lower(url.substr(0, sep));
  if (out.scheme != "http" && out.scheme != "https") return std::nullopt;
  std::string_view rest = url.substr(sep + 3);
  auto end = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, end);
  std::string_view tail = end == std::string_view::npos ? std::string_view() : rest.substr(end);
  auto at = authority.rfind('@');
  if (at != std::string_view::npos) authority = authority.substr(at + 1);
  std::string_view host = authority, port;
  if (!authority.empty() && authority[0] == '[') {
    auto close = authority.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    host = authority.substr(0, close + 1);
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after[0] != ':') return std::nullopt;
      port = after.substr(1);
    }
  } else if (auto colon = authority.rfind(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  if (host.empty()) return std::nullopt;
  for (char c : host)
    if (c == ' ' || c == '\t' || c == '\\' || static_cast<unsigned char>(c) < 0x20) return std::nullopt;
  if (!port.empty() && !valid_port(port)) return std::nullopt;
  out.host = lower(host);
  out.port = std::string(port);
  if ((out.scheme == "http" && out.port == "80") || (out.scheme == "https" && out.port == "443")) out.port.clear();
  std::string_view path = tail.substr(0, tail.find_first_of("?#"));
  out.path = path.empty() ? "/" : std::string(path);
  return out;
}

bool url_matches_pattern(std::string_view url, std::string_view pattern) {
  auto u = parse_http_url(url);
  auto p = split_pattern(pattern);
  if (!u || !p) return false;
  if (p->scheme != "*" && p->scheme != u->scheme) return false;
  if (p->host.substr(0, 2) == "*.") {
    std::string_view base = std::string_view(p->host).substr(2);
    std::string_view h = u->host;
    bool sub = h.size() > base.size() + 1 && h.substr(h.size() - base.size()) == base && h[h.size() - base.size() - 1] == '.';
    if (h != base && !sub) return false;
  } else if (p->host != u->host) {
    return false;
  }
  if (!p->port.empty()) {
    std::string default_port = u->scheme == "http" ? "80" : "443";
    std::string url_port = u->port.empty() ? default_port : u->port;
    if (p->port != url_port) return false;
  }
  if (p->path == "/*") return true;
  return glob(p->path, u->path);
}

bool url_matches_plugin(std::string_view url, const std::vector<std::string>& include,
                        const std::vector<std::string>& exclude) {
  bool any = false;
  for (auto& p : include)
    if (url_matches_pattern(url, p)) {
      any = true;
      break;
    }
  if (!any) return false;
  for (auto& p : exclude)
    if (url_matches_pattern(url, p)) return false;
  return true;
}

std::optional<std::string> derived_pattern(std::string_view url) {
  auto u = parse_http_url(url);
  if (!u) return std::nullopt;
  return "*://" + u->host + (u->port.empty() ? "" : ":" + u->port) + "/*";
}

}  // namespace opentabs::plugins
