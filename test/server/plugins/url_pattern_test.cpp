// Tests for URL pattern validation (§4.1) and matching (§4.4).
#include "plugins/url_pattern.hpp"

#include <doctest/doctest.h>

using namespace opentabs::plugins;

namespace {
std::string why(std::string_view p) {
  auto s = validate_url_pattern(p);
  return s.ok() ? "ok" : s.err().message;
}
}  // namespace

TEST_CASE("accepted patterns") {
  for (auto p : {"https://app.slack.com/*", "*://*.example.com/*", "http://localhost/*", "http://localhost:9876/*",
                 "http://127.0.0.1:3000/app/*", "https://example.co.uk/a/*/b/*", "*://github.com/*/*/pull/*"}) {
    CAPTURE(p);
    CHECK(why(p) == "ok");
  }
}

TEST_CASE("rejected patterns say why") {
  CHECK(why("<all_urls>") == "URL pattern \"<all_urls>\" matches every site (<all_urls> is not allowed)");
  CHECK(why("*://*/*") == "URL pattern \"*://*/*\" matches every host (a bare * host is not allowed)");
  CHECK(why("https://*.com/*") == "URL pattern \"https://*.com/*\" matches a whole top-level domain (*.com)");
  CHECK(why("ftp://example.com/*") == "URL pattern \"ftp://example.com/*\" must use the scheme *, http or https");
  CHECK(why("https://example.com") == "URL pattern \"https://example.com\" must have the form <scheme>://<host>/<path>");
  CHECK(why("https://example.com/*/*/*/*/*/*") == "URL pattern \"https://example.com/*/*/*/*/*/*\" has more than 5 * in its path");
  CHECK(why("http://256.1.1.1/*") == "URL pattern \"http://256.1.1.1/*\" has an invalid IPv4 address \"256.1.1.1\"");
  CHECK(why("http://1.2.3.04/*").find("invalid IPv4") != std::string::npos);
  CHECK(why("http://localhost:0/*").find("invalid port") != std::string::npos);
  CHECK(why("http://localhost:99999/*").find("invalid port") != std::string::npos);
  CHECK(why("https://intranet/*").find("must name a domain") != std::string::npos);
  CHECK(why("https://a.*.com/*").find("first label") != std::string::npos);
  CHECK(why("https://exa_mple.com/*").find("invalid host") != std::string::npos);
  CHECK(why("https://example.com:8443/*").find("port only with localhost") != std::string::npos);
  CHECK(why("https:///*") == "URL pattern \"https:///*\" has no host");
}

TEST_CASE("matching") {
  CHECK(url_matches_pattern("https://app.slack.com/client/T1", "https://app.slack.com/*"));
  CHECK(url_matches_pattern("http://app.slack.com/", "*://app.slack.com/*"));
  CHECK_FALSE(url_matches_pattern("ftp://app.slack.com/", "*://app.slack.com/*"));
  CHECK_FALSE(url_matches_pattern("http://app.slack.com/", "https://app.slack.com/*"));
  CHECK(url_matches_pattern("https://example.com/", "*://*.example.com/*"));
  CHECK(url_matches_pattern("https://a.b.example.com/x", "*://*.example.com/*"));
  CHECK_FALSE(url_matches_pattern("https://badexample.com/", "*://*.example.com/*"));
  CHECK(url_matches_pattern("http://localhost:9876/", "http://localhost/*"));
  CHECK(url_matches_pattern("http://localhost:9876/x", "http://localhost:9876/*"));
  CHECK_FALSE(url_matches_pattern("http://localhost:9877/x", "http://localhost:9876/*"));
  CHECK(url_matches_pattern("http://localhost/x", "http://localhost:80/*"));
  CHECK(url_matches_pattern("https://GitHub.com/o/r/pull/3?x=1", "*://github.com/*/*/pull/*"));
  CHECK_FALSE(url_matches_pattern("https://github.com/o/r/issues/3", "*://github.com/*/*/pull/*"));
  CHECK(url_matches_pattern("https://user:pw@example.com/", "https://example.com/*"));
  CHECK_FALSE(url_matches_pattern("not a url", "https://example.com/*"));
  CHECK(url_matches_plugin("http://localhost:5/app", {"http://localhost/*"}, {"http://localhost/no-plugin*"}));
  CHECK_FALSE(url_matches_plugin("http://localhost:5/no-plugin", {"http://localhost/*"}, {"http://localhost/no-plugin*"}));
  CHECK_FALSE(url_matches_plugin("http://other/", {"http://localhost/*"}, {}));
}

TEST_CASE("derived patterns keep a non-default port") {
  CHECK(*derived_pattern("https://acme.atlassian.net/jira") == "*://acme.atlassian.net/*");
  CHECK(*derived_pattern("http://localhost:9516") == "*://localhost:9516/*");
  CHECK(*derived_pattern("https://x.example:443/") == "*://x.example/*");
  CHECK(*derived_pattern("http://[::1]:8080/") == "*://[::1]:8080/*");
  CHECK_FALSE(derived_pattern("javascript:alert(1)").has_value());
  CHECK_FALSE(derived_pattern("https://").has_value());
  CHECK_FALSE(derived_pattern("http://host:notaport/").has_value());
}
