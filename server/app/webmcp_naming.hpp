// Names for tools that web pages publish through WebMCP: the site a frame belongs to
// ("host" or "host:port" of its http(s) URL), the site's slug (safe inside an MCP tool
// name), its permission key in config.json (`webmcp:<slug>`), and the MCP tool name
// `webmcp_<slug>_<tool>[suffix]` (at most 128 characters from [A-Za-z0-9_.-]).  Pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace opentabs::app::webmcp {

inline constexpr std::string_view kPermissionPrefix = "webmcp:";
inline constexpr std::size_t kMaxMcpNameLength = 128;
inline constexpr std::size_t kMaxToolNameLength = 128;

// "host[:port]" of an http(s) URL (lower-case host, default ports dropped); nullopt for
// other schemes, URLs without a host, and text that is not a URL.
std::optional<std::string> site_of_url(std::string_view url);

// The site as it may appear inside a tool name: [a-z0-9-] kept, '.' and ':' become '_'.
// When that mapping could merge two different sites (the host held '_' or characters
// outside the URL host alphabet), a short hash of the site is appended, so distinct sites
// never share a slug.
std::string site_slug(std::string_view site);

// "webmcp:<slug>", the key of the site in config.json `permissions`.
std::string permission_key(std::string_view slug);
// True for keys of the form permission_key() produces.
bool is_permission_key(std::string_view key);

// The WebMCP draft's tool-name rule: 1–128 characters from [A-Za-z0-9_.-].
bool valid_tool_name(std::string_view name);

// "webmcp_<slug>_<tool><suffix>", shortened to 128 characters with a hash of the full name
// when longer.
std::string mcp_tool_name(std::string_view slug, std::string_view tool, std::string_view suffix = {});

}  // namespace opentabs::app::webmcp
