// Hosts of URLs as Chrome opens them, for the permission question and the instance tabs.
#include "app/plugin_tabs.hpp"

#include <doctest/doctest.h>

using opentabs::app::host_of_url;

TEST_CASE("host_of_url: the host Chrome opens, not the one a person reads") {
  // The WHATWG parser ends the host of a special URL at a backslash: the credentials trick
  // shows bank.example to people and opens evil.example.
  CHECK(host_of_url("https://evil.example\\@bank.example") == "evil.example");
  CHECK(host_of_url("https://evil.example\\@bank.example/login") == "evil.example");
  CHECK(host_of_url("https://user:pw@bank.example/") == "bank.example");
  CHECK(host_of_url("https:\\\\evil.example/x") == "evil.example");
  CHECK(host_of_url("https:evil.example") == "evil.example");
  CHECK(host_of_url("HTTPS://Bank.Example:8443/a?b#c") == "bank.example:8443");
  CHECK(host_of_url("  https://ba\tnk.exa\nmple/ ") == "bank.example");
  CHECK(host_of_url("https://bank.example#@evil.example") == "bank.example");
  CHECK(host_of_url("https://bank.example?@evil.example") == "bank.example");
  // Not special: a backslash is part of the authority, and "//" is required.
  CHECK(host_of_url("chrome-extension://abc/page.html") == "abc");
  CHECK(host_of_url("mailto:someone@example.com").empty());
  CHECK(host_of_url("no scheme at all").empty());
  CHECK(host_of_url("localhost:3000/x").empty());
}
