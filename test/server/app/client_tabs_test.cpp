// client_tabs: which MCP client holds which tabs for /health, with the later client winning a
// shared tab and both lists bounded.
#include "app/client_tabs.hpp"

#include <string>

#include <doctest/doctest.h>

using opentabs::app::client_tabs;
namespace json = opentabs::json;

namespace {
std::string dump(const client_tabs& t) { return json::dump(json::value(t.to_json())); }
}  // namespace

TEST_CASE("client_tabs lists each client's tabs; the client that acted last holds a shared tab") {
  client_tabs t;
  t.touched("Claude Code", 4);
  t.touched("Claude Code", 7);
  t.touched("OpenCode", 9);
  CHECK(dump(t) == R"([{"client":"Claude Code","tabs":[4,7]},{"client":"OpenCode","tabs":[9]}])");
  t.touched("OpenCode", 4);
  CHECK(dump(t) == R"([{"client":"Claude Code","tabs":[7]},{"client":"OpenCode","tabs":[9,4]}])");
  t.closed(9);
  t.touched("", 7);  // a client without a name is not tracked
  CHECK(dump(t) == R"([{"client":"Claude Code","tabs":[7]},{"client":"OpenCode","tabs":[4]}])");
}

TEST_CASE("client_tabs forgets a client that ended, and only that one") {
  client_tabs t;
  t.touched("Claude Code", 4);
  t.touched("OpenCode", 9);
  t.ended("Claude Code");
  CHECK(dump(t) == R"([{"client":"OpenCode","tabs":[9]}])");
  t.ended("nobody");
  t.ended(std::string(200, 'O'));
  CHECK(dump(t) == R"([{"client":"OpenCode","tabs":[9]}])");
}

TEST_CASE("client_tabs drops the client heard from longest ago, and the oldest tab, at its bounds") {
  client_tabs t;
  for (std::size_t i = 0; i < client_tabs::max_clients; ++i) t.touched("c" + std::to_string(i), static_cast<std::int64_t>(i));
  t.touched("c0", 100);  // heard again: c1 is now the oldest
  t.touched("new", 200);
  auto out = t.to_json();
  REQUIRE(out.size() == client_tabs::max_clients);
  CHECK(dump(t).find(R"("client":"c1")") == std::string::npos);
  CHECK(dump(t).find(R"({"client":"c0","tabs":[0,100]})") != std::string::npos);
  client_tabs many;
  for (std::size_t i = 0; i <= client_tabs::max_tabs; ++i) many.touched("a", static_cast<std::int64_t>(i));
  auto tabs = many.to_json()[0].as_object().at("tabs").as_array();
  CHECK(tabs.size() == client_tabs::max_tabs);
  CHECK(tabs[0].as_int64() == 1);
  client_tabs long_name;
  long_name.touched(std::string(200, 'x'), 1);
  CHECK(long_name.to_json()[0].as_object().at("client").as_string().size() == client_tabs::max_name);
}
