#include "app/webmcp_naming.hpp"

#include <cstdint>
#include <cstdio>

namespace opentabs::app::webmcp {
namespace {

// FNV-1a, 32 bits, as 8 hex digits: only used to tell names apart, not for security.
std::string short_hash(std::string_view s, std::size_t digits = 8) {
  std::uint32_t h = 2166136261u;
  for (unsigned char c : s) {
    h ^= c;
    h *= 16777619u;
  }
  char buf[9];
  std::snprintf(buf, sizeof buf, "%08x", h);
  return std::string(buf, digits);
}

bool is_lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

}  // namespace

std::optional<std::string> site_of_url(std::string_view url) {
  std::string_view scheme;
  std::string_view rest;
  for (std::string_view s : {"https://", "http://"}) {
    if (url.size() >= s.size()) {
      bool same = true;
      for (std::size_t i = 0; i < s.size() && same; ++i) same = (url[i] | 0x20) == s[i] || url[i] == s[i];
      if (same) {
        scheme = s;
        rest = url.substr(s.size());
        break;
      }
    }
  }
  if (scheme.empty()) return std::nullopt;
  auto authority = rest.substr(0, rest.find_first_of("/?#"));
  if (auto at = authority.rfind('@'); at != std::string_view::npos) authority = authority.substr(at + 1);
  std::string_view host = authority;
  std::string_view port;
  if (!authority.empty() && authority.front() == '[') {
    auto close = authority.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    host = authority.substr(0, close + 1);
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':') return std::nullopt;
      port = authority.substr(close + 2);
    }
  } else if (auto colon = authority.rfind(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  if (host.empty() || host.size() > 253) return std::nullopt;
  for (char c : port)
    if (c < '0' || c > '9') return std::nullopt;
  if (port.size() > 5) return std::nullopt;
  std::string out;
  for (char c : host) {
    auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7f) return std::nullopt;
    out.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c));
  }
  bool https = scheme == "https://";
  if (!port.empty() && !((https && port == "443") || (!https && port == "80"))) out += ":" + std::string(port);
  return out;
}

std::string site_slug(std::string_view site) {
  std::string slug;
  bool lossy = false;
  for (char c : site) {
    if (is_lower_alnum(c) || c == '-') {
      slug.push_back(c);
    } else if (c == '.' || c == ':') {
      slug.push_back('_');
    } else {
      slug.push_back('_');
      lossy = true;
    }
  }
  if (slug.empty()) slug = "site", lossy = true;
  if (slug.size() > 64) slug.resize(64), lossy = true;
  if (lossy) slug += "_" + short_hash(site, 6);
  return slug;
}

std::string permission_key(std::string_view slug) { return std::string(kPermissionPrefix) + std::string(slug); }

bool is_permission_key(std::string_view key) {
  if (key.substr(0, kPermissionPrefix.size()) != kPermissionPrefix) return false;
  auto slug = key.substr(kPermissionPrefix.size());
  if (slug.empty() || slug.size() > 80) return false;
  for (char c : slug)
    if (!is_lower_alnum(c) && c != '-' && c != '_') return false;
  return true;
}

bool valid_tool_name(std::string_view name) {
  if (name.empty() || name.size() > kMaxToolNameLength) return false;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
              c == '-';
    if (!ok) return false;
  }
  return true;
}

std::string mcp_tool_name(std::string_view slug, std::string_view tool, std::string_view suffix) {
  std::string full = "webmcp_" + std::string(slug) + "_" + std::string(tool) + std::string(suffix);
  if (full.size() <= kMaxMcpNameLength) return full;
  auto hash = short_hash(full);
  return full.substr(0, kMaxMcpNameLength - hash.size() - 1) + "_" + hash;
}

}  // namespace opentabs::app::webmcp
