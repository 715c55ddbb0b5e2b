// Sites, slugs, permission keys and MCP names of WebMCP page tools.
#include <doctest/doctest.h>

#include "app/webmcp_naming.hpp"

using namespace opentabs::app::webmcp;

TEST_CASE("site of a URL: host, non-default port, http(s) only") {
  CHECK(site_of_url("https://Example.COM/path?q#x") == "example.com");
  CHECK(site_of_url("http://127.0.0.1:8123/a") == "127.0.0.1:8123");
  CHECK(site_of_url("https://example.com:443/") == "example.com");
  CHECK(site_of_url("http://example.com:80") == "example.com");
  CHECK(site_of_url("http://user:pw@host.test:9/") == "host.test:9");
  CHECK(site_of_url("http://[::1]:8080/") == "[::1]:8080");
  CHECK_FALSE(site_of_url("file:///etc/passwd"));
  CHECK_FALSE(site_of_url("chrome://extensions"));
  CHECK_FALSE(site_of_url("http:///nohost"));
  CHECK_FALSE(site_of_url("http://host:12x/"));
  CHECK_FALSE(site_of_url("about:blank"));
}

TEST_CASE("slugs are name-safe and distinct for distinct sites") {
  CHECK(site_slug("example.com") == "example_com");
  CHECK(site_slug("127.0.0.1:8123") == "127_0_0_1_8123");
  CHECK(site_slug("my-site.test") == "my-site_test");
  // "a_b.com" cannot be told from "a.b.com" by the plain mapping: it gets a hash.
  auto lossy = site_slug("a_b.com");
  CHECK(lossy != site_slug("a.b.com"));
  CHECK(lossy.rfind("a_b_com_", 0) == 0);
  CHECK(site_slug("[::1]:8080") != site_slug("__1_8080"));
  for (char c : site_slug("[::1]:8080")) CHECK(((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'));
}

TEST_CASE("permission keys") {
  CHECK(permission_key("example_com") == "webmcp:example_com");
  CHECK(is_permission_key("webmcp:example_com"));
  CHECK(is_permission_key("webmcp:127_0_0_1_8123"));
  CHECK_FALSE(is_permission_key("webmcp:"));
  CHECK_FALSE(is_permission_key("webmcp:Example.com"));
  CHECK_FALSE(is_permission_key("slack"));
  CHECK_FALSE(is_permission_key("webmcp:a b"));
}

TEST_CASE("tool names follow the WebMCP draft rule") {
  CHECK(valid_tool_name("search"));
  CHECK(valid_tool_name("cart.add-item_2"));
  CHECK(valid_tool_name(std::string(128, 'a')));
  CHECK_FALSE(valid_tool_name(""));
  CHECK_FALSE(valid_tool_name(std::string(129, 'a')));
  CHECK_FALSE(valid_tool_name("with space"));
  CHECK_FALSE(valid_tool_name("é"));
  CHECK_FALSE(valid_tool_name("a/b"));
}

TEST_CASE("MCP names: webmcp_<slug>_<tool>[suffix], at most 128 characters") {
  CHECK(mcp_tool_name("example_com", "search") == "webmcp_example_com_search");
  CHECK(mcp_tool_name("example_com", "search", "_t5") == "webmcp_example_com_search_t5");
  auto a = mcp_tool_name("example_com", std::string(128, 'a'));
  auto b = mcp_tool_name("example_com", std::string(127, 'a') + "b");
  CHECK(a.size() == 128);
  CHECK(b.size() == 128);
  CHECK(a != b);
}
