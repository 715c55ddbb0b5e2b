// How arguments are shown to people before they approve a call.
#include <doctest/doctest.h>

#include "tools/shown_arguments.hpp"

using namespace opentabs;
using namespace opentabs::tools;

TEST_CASE("secrets are redacted by name and by shape; other values stay whole") {
  const std::string token = "ghp_" + std::string(36, 'Z');
  json::object args{{"password", "hunter2"}, {"note", json::str("ship it with " + token)}, {"title", "Groceries"}};
  auto shown = redact_arguments(args);
  CHECK(*json::get_string(shown, "password") == "[redacted]");
  CHECK(*json::get_string(shown, "note") == "ship it with [redacted GitHub token]");
  CHECK(*json::get_string(shown, "title") == "Groceries");
}

TEST_CASE("arguments too long for a dialog are never cut silently: size, digest and both ends") {
  json::object args{{"script", json::str("start " + std::string(max_shown_argument_bytes, 'y') + " the end")}};
  auto shown = shown_arguments(args);
  CHECK(shown.size() < max_shown_argument_bytes + 400);
  CHECK(shown.find("too long to show here in full") != std::string::npos);
  CHECK(shown.find("SHA-256 ") != std::string::npos);
  CHECK(shown.find("start") != std::string::npos);
  CHECK(shown.find("the end") != std::string::npos);
  json::object small{{"a", "b"}};
  CHECK(shown_arguments(small) == R"({"a":"b"})");
}
