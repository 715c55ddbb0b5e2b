// Log levels, the session filter and the notifications/message a plugin log becomes.
#include <doctest/doctest.h>

#include "mcp/log_level.hpp"

using namespace opentabs;
using namespace opentabs::mcp;

TEST_CASE("levels parse in syslog order") {
  CHECK(parse_log_level("debug") == log_level::debug);
  CHECK(parse_log_level("emergency") == log_level::emergency);
  CHECK_FALSE(parse_log_level("warn"));
  CHECK(to_string(log_level::notice) == "notice");
}

TEST_CASE("the filter passes everything until a level is set") {
  log_filter f;
  CHECK(f.passes(log_level::debug));
  f.set(log_level::warning);
  CHECK_FALSE(f.passes(log_level::info));
  CHECK(f.passes(log_level::warning));
  CHECK(f.passes(log_level::error));
}

TEST_CASE("plugin log entries become notifications/message params") {
  tools::plugin_log_entry e{"notes", "warning", "saved", json::object{{"id", 3}}, 0};
  auto p = plugin_log_params(e);
  CHECK(p.at("level").as_string() == "warning");
  CHECK(p.at("logger").as_string() == "plugin:notes");
  CHECK(p.at("data").as_string() == R"(saved {"id":3})");
  tools::plugin_log_entry plain{"notes", "odd", "hello", nullptr, 0};
  CHECK(plugin_log_params(plain).at("level").as_string() == "info");
  CHECK(plugin_log_params(plain).at("data").as_string() == "hello");
}
