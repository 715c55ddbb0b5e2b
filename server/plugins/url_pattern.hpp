// Plugin URL patterns (Chrome match patterns, spec §4.1 rules) and URL matching (§4.4), as
// pure functions.  Only http/https pages are ever matched.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.hpp"

namespace opentabs::plugins {

// Checks a pattern from package.json / tools.json.  Accepted: `<*|http|https>://<host>/<path>`
// where host is `localhost[:port]`, an IPv4 address `[:port]`, or `[*.]domain.tld`.
// Rejected with a message saying why: `<all_urls>`, `*://*/*`, a bare `*` host, `*.<tld>`,
// more than 5 `*` in the path, bad IPv4 octets, other schemes.  Error code "invalid_url_pattern".
status validate_url_pattern(std::string_view pattern);

// The parts of an http(s) URL that matching needs; host lowercased, default port dropped.
struct parsed_url {
  std::string scheme;  // "http" | "https"
  std::string host;    // "example.com", "127.0.0.1", "[::1]"
  std::string port;    // "" when absent or the scheme's default
  std::string path;    // pathname, "/" at least
};

// nullopt for anything but an absolute http(s) URL with a host.
std::optional<parsed_url> parse_http_url(std::string_view url);

// §4.4: scheme `*` = http or https; `*.example.com` also matches example.com; a pattern
// port must equal the URL port, a pattern without one matches any port; path `/*` matches
// everything, otherwise a `*` glob over the pathname.
bool url_matches_pattern(std::string_view url, std::string_view pattern);

// Matches any include pattern and no exclude pattern.
bool url_matches_plugin(std::string_view url, const std::vector<std::string>& include,
                        const std::vector<std::string>& exclude);

// `*://<host[:port]>/*` for a settings URL (§4.5); nullopt when the URL is not http(s).
std::optional<std::string> derived_pattern(std::string_view url);

}  // namespace opentabs::plugins
