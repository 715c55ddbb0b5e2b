// call_results: the wording of tool-call failures, here the redaction of URLs and absolute
// paths in error text coming from pages and the extension.
#include "app/call_results.hpp"

#include <doctest/doctest.h>

using opentabs::app::sanitize_error_text;

TEST_CASE("sanitize_error_text replaces URLs and absolute paths, keeping the prose around them") {
  CHECK(sanitize_error_text("fetch https://api.example.com/v1/me?token=abc failed") == "fetch [url] failed");
  CHECK(sanitize_error_text("Tab 7 moved (now http://localhost:9/x)") == "Tab 7 moved (now [url])");
  CHECK(sanitize_error_text("see [ws://h/p] or <file:///etc/passwd>") == "see [[url]] or <[url]>");
  CHECK(sanitize_error_text("cannot read /home/alice/.ssh/id_rsa: denied") == "cannot read [path]: denied");
  CHECK(sanitize_error_text("plain message, 3/4 done") == "plain message, 3/4 done");
}

TEST_CASE("sanitize_error_text caps long text") {
  auto out = sanitize_error_text(std::string(2000, 'x'));
  CHECK(out.size() <= 500);
}
